/**
 * `@path` mentions in a user's message: each mentioned workspace file is read through the
 * `read` tool (the same resolver, ignore rules, protected places and size limits as a model's
 * read), redacted, marked as data, capped, and attached after the message, so the model has
 * it without spending a step. A file that cannot be read gets a one-line note saying why, so
 * neither the user nor the model wonders where it went.
 */
import type { SessionSafety } from '../tools/sessionSafety.js';
import type { ToolRegistry } from '../tools/registry.js';
import type { Workspace } from '../tools/workspace.js';

/** Most files attached from one message (more are noted, not read). */
export const MENTION_MAX_FILES = 10;
/** Most characters of one attached file; the rest is left to a `read` with an offset. */
export const MENTION_MAX_CHARS = 24_000;

/**
 * `@` at the start or after white space, then a path (no spaces; a trailing `.`, `,`, `:`,
 * `;`, `!`, `?` or `)` is punctuation, not part of it). An e-mail address has no space
 * before its `@`, so it is not a mention.
 */
const MENTION = /(?:^|(?<=\s))@([^\s@]+)/g;

/** The paths mentioned in `text`, each once, in order. */
export function findMentions(text: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(MENTION)) {
    const p = m[1]!.replace(/[.,:;!?)]+$/, '');
    if (p !== '' && !out.includes(p)) out.push(p);
  }
  return out;
}

export interface MentionDeps {
  registry: Pick<ToolRegistry, 'run' | 'get'>;
  workspace: Workspace;
  safety: SessionSafety;
}

/** `text` with the files it mentions attached below it; unchanged when it mentions none. */
export async function attachMentions(
  text: string,
  deps: MentionDeps,
  signal: AbortSignal,
): Promise<string> {
  const paths = findMentions(text);
  if (paths.length === 0 || deps.registry.get('read') === undefined) return text;
  const blocks: string[] = [];
  for (const [i, rel] of paths.entries()) {
    if (signal.aborted) break;
    if (i >= MENTION_MAX_FILES) {
      blocks.push(`[@${rel}: not attached: at most ${MENTION_MAX_FILES} files per message]`);
      continue;
    }
    blocks.push(await attachOne(rel, deps, signal));
  }
  return `${text}\n\n${blocks.join('\n\n')}`;
}

async function attachOne(rel: string, deps: MentionDeps, signal: AbortSignal): Promise<string> {
  const { safety } = deps;
  const redact = (s: string): string => safety.redactor.redact(s);
  const { result } = await deps.registry.run('read', [rel], {
    workspace: deps.workspace,
    signal,
    redact,
  });
  if (!result.ok) {
    return `[@${rel}: not attached: ${redact(result.error.message)}]`;
  }
  const read = deps.registry.get('read');
  const full = redact(typeof result.data === 'string' ? result.data : JSON.stringify(result.data));
  // What was read is remembered, so sending it off the machine later asks first.
  safety.observe(read, `read(${JSON.stringify(rel)})`, full);
  const cut = full.length > MENTION_MAX_CHARS;
  const body = cut
    ? `${full.slice(0, MENTION_MAX_CHARS)}\n[… ${full.length - MENTION_MAX_CHARS} more characters: read("${rel}") with an offset for the rest]`
    : full;
  return [
    `[Attached by the user: @${rel}]`,
    safety.forModel(read, true, body, undefined, true),
  ].join('\n');
}

/** A file as attached below a user's message: its path, and its size or why it was not. */
export interface AttachedFile {
  path: string;
  /** UTF-8 bytes of what was attached (the file as read, marked as data); undefined when not. */
  bytes?: number;
}

/** Where an attachment block (or a not-attached note) begins after the message's own text. */
const ATTACHED_MARK =
  /\n\n\[(?:Attached by the user: @([^\]\n]+)\]|@([^\n]+?): not attached: [^\n]*\])/g;

/**
 * A saved user message split back into what was typed and the files {@link attachMentions}
 * put below it, so the screen can show each file as one line instead of its whole text.
 */
export function splitAttachments(content: string): { text: string; files: AttachedFile[] } {
  const marks = [...content.matchAll(ATTACHED_MARK)];
  if (marks.length === 0) return { text: content, files: [] };
  const files = marks.map((m, i): AttachedFile => {
    const end = marks[i + 1]?.index ?? content.length;
    if (m[1] === undefined) return { path: m[2]! };
    const body = content.slice(m.index + m[0].length, end).replace(/^\n/, '');
    return { path: m[1], bytes: Buffer.byteLength(body, 'utf8') };
  });
  return { text: content.slice(0, marks[0]!.index), files };
}
