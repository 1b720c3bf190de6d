import path from 'node:path';
import type { ToolArg } from '../tools/types.js';

/** How long after a write tool ends its file events still count as the agent's own. */
const OWN_WRITE_GRACE_MS = 3000;

/**
 * The paths the agent's own write tools are touching, so the watcher does not wake the agent
 * for its own work. Fed by the tool runner around each write-kind call; any string argument
 * that could be a workspace path is noted (content arguments match nothing, harmlessly).
 */
export class OwnWrites {
  /** Absolute path → the time its grace ends (Infinity while the tool runs). */
  private readonly until = new Map<string, number>();

  constructor(
    private readonly root: string,
    private readonly now: () => number = Date.now,
  ) {}

  /** A write tool starts (`done` false) or ends (`done` true) with these arguments. */
  touching(args: readonly ToolArg[], done: boolean): void {
    for (const arg of args) {
      if (typeof arg !== 'string' || arg === '' || arg.length > 4096 || arg.includes('\n'))
        continue;
      const abs = path.resolve(this.root, arg);
      this.until.set(abs, done ? this.now() + OWN_WRITE_GRACE_MS : Infinity);
    }
    if (done) this.prune();
  }

  /** True when an event on `abs` (or inside a folder being written) is the agent's own. */
  isOwn(abs: string): boolean {
    const now = this.now();
    for (const [p, until] of this.until) {
      if (until < now) continue;
      // `p.<random>` and `.name.<random>.cogito-tmp` are the temporary siblings an atomic
      // write renames into place.
      if (abs === p || abs.startsWith(p + path.sep) || abs.startsWith(`${p}.`)) return true;
      if (isTempSibling(abs, p)) return true;
    }
    return false;
  }

  private prune(): void {
    const now = this.now();
    for (const [p, until] of this.until) if (until < now) this.until.delete(p);
  }
}

/** The checked writer's temporary file for `target`: `.name.<hex>.cogito-tmp` beside it. */
function isTempSibling(abs: string, target: string): boolean {
  if (path.dirname(abs) !== path.dirname(target)) return false;
  const base = path.basename(abs);
  return base.startsWith(`.${path.basename(target)}.`) && base.endsWith('.cogito-tmp');
}
