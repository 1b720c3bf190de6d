/**
 * A process limit that holds for root: the kernel never applies `ulimit -u` to uid 0, so when
 * Cogito runs as root each sandboxed command is started in a pids cgroup of its own whose
 * `pids.max` is `run.maxProcesses`. The starting shell writes its own pid into the cgroup and
 * then execs bwrap, so every process the command makes is born inside it (no race with a
 * fork bomb's first forks). Best effort: where no pids cgroup can be made (no controller, a
 * container without cgroup rights), the command runs without it, as it would for a normal
 * user's uid, and the time limit and the process-id namespace still end a bomb.
 */
import fs from 'node:fs';
import path from 'node:path';

/** Where new pids cgroups can be made, found once: cgroup v2's root or v1's pids hierarchy. */
let base: string | null | undefined;
let made = 0;

function pidsBase(): string | null {
  if (base !== undefined) return base;
  base = null;
  try {
    const v2 = '/sys/fs/cgroup';
    const controllers = path.join(v2, 'cgroup.subtree_control');
    if (fs.existsSync(controllers) && /\bpids\b/.test(fs.readFileSync(controllers, 'utf8'))) {
      base = v2;
    } else if (fs.existsSync('/sys/fs/cgroup/pids/cgroup.procs')) {
      base = '/sys/fs/cgroup/pids';
    }
  } catch {
    base = null;
  }
  return base;
}

/** A command's argv put inside a fresh pids cgroup, and the cgroup's removal once it ended. */
export interface Limited {
  argv: string[];
  /** Removes the cgroup once its last process is gone (bounded wait). */
  release(): Promise<void>;
}

/**
 * `argv` started inside a new pids cgroup holding at most `maxProcesses` (when running as
 * root and one can be made), else `argv` unchanged.
 */
export function withPidsLimit(argv: readonly string[], maxProcesses: number): Limited {
  const none = { argv: [...argv], release: () => Promise.resolve() };
  if (process.getuid?.() !== 0) return none;
  const root = pidsBase();
  if (root === null) return none;
  const dir = path.join(root, `cogito-run-${process.pid}-${++made}`);
  try {
    fs.mkdirSync(dir);
    fs.writeFileSync(path.join(dir, 'pids.max'), String(Math.floor(maxProcesses)));
  } catch {
    try {
      fs.rmdirSync(dir);
    } catch {
      // never made
    }
    return none;
  }
  const procs = path.join(dir, 'cgroup.procs');
  return {
    // "$0" is the cgroup's procs file; the rest is the command, exec'd in place of the shell.
    argv: ['/bin/sh', '-c', 'echo $$ > "$0" 2>/dev/null; exec "$@"', procs, ...argv],
    release: () => removeWhenEmpty(dir),
  };
}

/**
 * Removes the cgroup. Its last processes may still be exiting when bwrap has (the kernel
 * ends the namespace's processes after its first one), so it tries again for up to 2 s;
 * the wait is awaited, so a closing app does not leave an empty cgroup behind.
 */
async function removeWhenEmpty(dir: string): Promise<void> {
  for (let i = 0; i < 40; i++) {
    try {
      fs.rmdirSync(dir);
      return;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') return;
      await new Promise((r) => setTimeout(r, 50));
    }
  }
}
