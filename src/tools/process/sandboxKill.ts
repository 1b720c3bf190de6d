/**
 * Killing a sandbox for certain. SIGKILL to bwrap's process group ends the outer bwrap, and
 * `--die-with-parent` then ends the namespace's first process, and with it every process of
 * the command; but that process sets its parent-death signal only after it has started, so a
 * kill in its first instant could leave it (and the command) running. bwrap says that
 * process's pid on `--info-fd` (fd 3 here); killing it ends the whole process-id namespace,
 * whenever the kill comes, even before the pid is known (it is killed on arrival).
 */
import fs from 'node:fs';
import type { ChildProcess } from 'node:child_process';

/** The extra fd bwrap writes its info to (the child's stdio[3]). */
export const INFO_FD = 3;

export class SandboxKiller {
  private inner: number | undefined;
  private wanted = false;

  /** `sandboxed`: bwrap was given `--info-fd 3` and stdio[3] is a pipe. */
  constructor(
    private readonly child: ChildProcess,
    sandboxed: boolean,
  ) {
    const info = sandboxed ? child.stdio[INFO_FD] : undefined;
    if (info === undefined || info === null || !('on' in info)) return;
    let text = '';
    info.on('data', (d: Buffer) => {
      if (this.inner !== undefined || text.length > 4096) return;
      text += d.toString('utf8');
      const m = /"child-pid"\s*:\s*(\d+)/.exec(text);
      if (m === null) return;
      this.inner = Number(m[1]);
      if (this.wanted) this.killInner();
    });
    info.on('error', () => {});
  }

  /** SIGKILL to the group and to the namespace's first process (now, or once known). */
  kill(): void {
    this.wanted = true;
    // The inner one first, while its parent is still the bwrap this kill is about.
    this.killInner();
    try {
      if (this.child.pid !== undefined) process.kill(-this.child.pid, 'SIGKILL');
    } catch {
      this.child.kill('SIGKILL');
    }
  }

  private killInner(): void {
    const pid = this.inner;
    if (pid === undefined) return;
    // Only bwrap's own child (the command never gets fd 3: bwrap alone writes it), or that
    // child orphaned when the outer bwrap died first.
    const parent = parentOf(pid);
    if (parent !== this.child.pid && parent !== 1) return;
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // gone already
    }
  }
}

function parentOf(pid: number): number | undefined {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name is in parentheses and may hold spaces: the fields follow the last ')'.
    const rest = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return Number(rest[1]);
  } catch {
    return undefined;
  }
}
