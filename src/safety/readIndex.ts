/**
 * What the agent read from the workspace in this session, kept so that a network call
 * carrying any of it can be stopped for approval. The question asked is "does the outgoing
 * text share a run of {@link MIN_RUN} characters with something read?", answered with
 * rolling hashes in time linear in what was read; the oldest reads are dropped past a cap.
 */
import { forEachGram, gramHashes } from '../core/grams.js';
import { outgoingForms } from './decodings.js';

/** The threshold: shorter runs are too common ("function ", "https://www.") to mean data. */
const MIN_RUN = 12;
/** Total characters remembered; past it the oldest reads are forgotten. */
const DEFAULT_CAP = 8 * 1024 * 1024;

/** Where outgoing data was found: the file (or call) it was read by, and its encoding. */
interface ReadMatch {
  source: string;
  how: string;
}

interface Entry {
  source: string;
  text: string;
}

/** A session's read index; one per agent. */
export class ReadIndex {
  private readonly entries: Entry[] = [];
  private total = 0;

  constructor(private readonly cap = DEFAULT_CAP) {}

  /** Remembers `text` as read from `source` (a workspace path, or the call that read it). */
  add(source: string, text: string): void {
    if (text.length < MIN_RUN) return;
    const kept = text.length > this.cap ? text.slice(0, this.cap) : text;
    this.entries.push({ source, text: kept });
    this.total += kept.length;
    while (this.total > this.cap && this.entries.length > 1) {
      this.total -= this.entries.shift()!.text.length;
    }
  }

  /**
   * The newest read that `outgoing` carries a run of, in any of its decoded forms; undefined
   * when none. With `followsLinks` (the arguments name where they go, as a URL does), a
   * string that appears whole in something read is a link the agent is following: it
   * carries nothing new and is not counted. A call with a fixed destination (an MCP server)
   * gets no such pass: a note sent there whole is the note.
   */
  find(outgoing: readonly string[], followsLinks = true): ReadMatch | undefined {
    const isLink = (s: string): boolean =>
      followsLinks && this.entries.some((e) => e.text.includes(s));
    const forms = outgoing
      .filter((s) => s.length >= MIN_RUN && !isLink(s))
      .flatMap((s) => outgoingForms(s));
    if (forms.length === 0) return undefined;
    const hashes = new Set<number>();
    for (const f of forms) for (const h of gramHashes(f.form, MIN_RUN)) hashes.add(h);
    for (let i = this.entries.length - 1; i >= 0; i--) {
      const entry = this.entries[i]!;
      let found: ReadMatch | undefined;
      forEachGram(entry.text, MIN_RUN, (start, h) => {
        if (!hashes.has(h)) return false;
        const gram = entry.text.slice(start, start + MIN_RUN);
        const form = forms.find((f) => f.form.includes(gram));
        if (form === undefined) return false;
        found = { source: entry.source, how: form.how };
        return true;
      });
      if (found !== undefined) return found;
    }
    return undefined;
  }
}
