/**
 * Which workspace skills the user has trusted: a skill from the workspace is text someone
 * else may have put there (a cloned repository), so its instructions reach the model only
 * after the user said yes once on the approval card. The answer is kept per SKILL.md, by its
 * real path and the hash of its content, in the home (`data/skills-trust.json`, rewritten
 * whole and atomically): a changed SKILL.md asks again.
 */
import path from 'node:path';
import { atomicWriteFileSync, realFs, type HistoryFs } from '../core/fsPort.js';
import { readStateText, setAside } from '../core/stateFile.js';

export const TRUST_FILE = 'skills-trust.json';

interface TrustBody {
  version: 1;
  /** SKILL.md real path → the sha256 of the content the user said yes to. */
  trusted: Record<string, string>;
  /** Workspace → skill name → when it was first seen (what "offered" counts from). */
  seen?: Record<string, Record<string, number>>;
}

export class SkillTrust {
  private body: TrustBody = { version: 1, trusted: {} };

  constructor(
    private readonly file: string,
    private readonly warn: (message: string) => void = () => {},
    private readonly fs: HistoryFs = realFs,
  ) {
    const read = readStateText(fs, file);
    if (read.kind === 'missing') return;
    const parsed = read.kind === 'text' ? parse(read.text) : undefined;
    if (parsed) {
      this.body = parsed;
      return;
    }
    const aside = setAside(fs, file);
    warn(
      `The skill trust file ${file} could not be read${read.kind === 'unreadable' ? ` (${read.problem})` : ''}; ${aside.ok ? `it was kept aside as ${aside.aside} and ` : ''}workspace skills will ask again.`,
    );
  }

  /** The trust file of a home's data folder. */
  static inData(data: string, warn?: (message: string) => void, fs?: HistoryFs): SkillTrust {
    return new SkillTrust(path.join(data, TRUST_FILE), warn, fs);
  }

  trusted(file: string, hash: string): boolean {
    return this.body.trusted[file] === hash;
  }

  /** Records the user's yes; a failed write is said, and the yes holds for this run. */
  trust(file: string, hash: string): void {
    this.body.trusted[file] = hash;
    this.save();
  }

  /** When each of `names` was first seen in `workspace` (new ones are recorded as `now`). */
  firstSeen(workspace: string, names: readonly string[], now: number): Record<string, number> {
    const seen = (this.body.seen ??= {});
    const here = (seen[workspace] ??= {});
    let changed = false;
    for (const name of names) {
      if (here[name] === undefined) {
        here[name] = now;
        changed = true;
      }
    }
    if (changed) this.save();
    return { ...here };
  }

  private save(): void {
    try {
      this.fs.mkdirSync(path.dirname(this.file), { recursive: true, mode: 0o700 });
      atomicWriteFileSync(this.fs, this.file, `${JSON.stringify(this.body, null, 2)}\n`);
    } catch (err) {
      this.warn(
        `Could not save the skill trust file ${this.file}: ${(err as Error).message}. Check that the folder is writable; the answer holds for this run only.`,
      );
    }
  }
}

function parse(text: string): TrustBody | undefined {
  try {
    const value = JSON.parse(text) as Partial<TrustBody> | null;
    if (!value || typeof value !== 'object' || typeof value.trusted !== 'object' || !value.trusted)
      return undefined;
    const trusted: Record<string, string> = {};
    for (const [k, v] of Object.entries(value.trusted)) if (typeof v === 'string') trusted[k] = v;
    const seen = typeof value.seen === 'object' && value.seen ? value.seen : {};
    return { version: 1, trusted, seen };
  } catch {
    return undefined;
  }
}
