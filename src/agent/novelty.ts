/**
 * Tools whose result is not a finding: `remind` only echoes the reminder the model set, so
 * a new one each cycle must not count as "found something".
 */
const NOT_FINDINGS: ReadonlySet<string> = new Set(['remind']);

/** How many recent call results are remembered to tell a repeated look from a new one. */
const SEEN_MAX = 500;

/**
 * Decides whether an autonomous cycle found anything new; nothing new makes pacing rest
 * longer. It is judged on what the cycle found, never on what the model said or set: a cycle
 * is new only when a tool call (a read, a search, a page, a command, a write) returned a result
 * not seen before. Reworded text, a fresh `remind` and failed calls are not findings, so a
 * model cannot keep itself at its fastest pace by setting a new reminder each cycle, calling
 * something that fails differently each time, or phrasing "nothing new" differently.
 */
export class Novelty {
  private readonly seen = new Set<string>();

  /**
   * True when the cycle found something. `results` are `call\nok|error\nbody` (the call
   * text starts with the tool's name). Results seen before a user message are still not new.
   */
  judge(results: readonly string[]): boolean {
    let fresh = false;
    for (const r of results) {
      if (this.isFinding(r) && !this.seen.has(r)) fresh = true;
      this.remember(r);
    }
    return fresh;
  }

  private isFinding(result: string): boolean {
    const [call = '', status] = result.split('\n', 2);
    if (status !== 'ok') return false;
    const name = /^[\w.:-]+/.exec(call)?.[0] ?? '';
    return !NOT_FINDINGS.has(name);
  }

  private remember(r: string): void {
    this.seen.delete(r);
    this.seen.add(r);
    if (this.seen.size > SEEN_MAX) this.seen.delete(this.seen.values().next().value as string);
  }
}
