/**
 * The OS sandbox `run` puts every command in: bubblewrap on Linux. The whole file system is
 * mounted read-only, then the workspace is mounted writable on top (read-only for a
 * read-only command), then the protected places inside it (`.git`, `.hg`, `.svn`) read-only
 * again and Cogito's home hidden; `/tmp` is a private tmpfs, `/dev` and `/proc` are fresh,
 * and every namespace is new (no network but a loopback that is down, its own process ids,
 * so killing the sandbox kills everything the command started). If the sandbox cannot start
 * the command is refused with the reason and the fix: it never runs unsandboxed silently.
 */
import fs from 'node:fs';
import path from 'node:path';
import { STARTUP_FILES } from '../../safety/protectedPlaces.js';

/** The sandbox found working, or why there is none and how to get one. */
export type SandboxCheck =
  { ok: true; bwrap: string } | { ok: false; reason: string; fix: string; outside?: string };

/** What a command may touch, for {@link bwrapArgs}. */
export interface SandboxPlan {
  workspace: string;
  /** The folder the command starts in (inside the workspace). */
  cwd: string;
  /** Mount the workspace read-only too (a read-only command). */
  readOnly: boolean;
  /** Folders hidden behind an empty read-only tmpfs: Cogito's home (its config holds keys). */
  hidden: readonly string[];
  /** An fd bwrap writes its info to (the namespace's first pid, for `sandboxKill.ts`). */
  infoFd?: number;
}

/**
 * Read-only even inside the workspace, where they exist at its top: version control folders
 * (a hook or a config entry runs code later), and, for a workspace that is a home folder,
 * the shell start-up files and the folders whose files the session runs by itself. Ones
 * that do not exist are not made (a mount point would be created on the real disk).
 */
export const PROTECTED_NAMES: readonly string[] = [
  '.git',
  '.hg',
  '.svn',
  ...STARTUP_FILES,
  '.config/fish',
  '.config/autostart',
  '.config/systemd',
  '.local/share/applications',
  'Library/LaunchAgents',
];
/** Files a command may grow to at most (`ulimit -f`, in 512-byte blocks: 1 GiB). */
const FILE_SIZE_BLOCKS = 2 * 1024 * 1024;
/** Processes (and threads) a sandboxed command may have at once, unless run.maxProcesses says. */
export const DEFAULT_MAX_PROCESSES = 1024;
/** The private /tmp's size. */
const TMP_BYTES = 512 * 1024 * 1024;

const OFF_SETTING =
  'or, to run commands without a sandbox (each one asked about first), set "run": { "sandbox": "off" } in config.json';

/** One per bwrap path configured (normally one): never grows with the session. */
const checks = new Map<string, Promise<SandboxCheck>>();

/**
 * Finds bwrap (`bwrapPath`, else on PATH) and starts it once with the mounts `run` uses, so
 * a machine where it cannot work is known before a command is given to it. Cached per path.
 */
export function checkSandbox(
  bwrapPath: string | undefined,
  platform: NodeJS.Platform = process.platform,
): Promise<SandboxCheck> {
  if (platform !== 'linux') {
    return Promise.resolve({
      ok: false,
      reason: `the command sandbox is built on bubblewrap, which exists on Linux only, and this is ${platform}`,
      fix: `Run Cogito on Linux for sandboxed commands, ${OFF_SETTING}.`,
    });
  }
  const key = bwrapPath ?? '';
  let known = checks.get(key);
  if (known === undefined) {
    known = probe(bwrapPath);
    checks.set(key, known);
  }
  return known;
}

async function probe(bwrapPath: string | undefined): Promise<SandboxCheck> {
  const bwrap = bwrapPath ?? onPath('bwrap');
  const install =
    'Install bubblewrap (Debian/Ubuntu: sudo apt install bubblewrap; Fedora: sudo dnf install bubblewrap; Arch: sudo pacman -S bubblewrap)';
  if (bwrap === undefined || !isExecutable(bwrap)) {
    const where = bwrapPath === undefined ? 'bwrap is not on PATH' : `${bwrapPath} is not there`;
    return {
      ok: false,
      reason: `no command sandbox can start: bubblewrap is not installed (${where})`,
      fix: `${install}, ${OFF_SETTING}.`,
    };
  }
  const args = [...bwrapArgs({ workspace: '/', cwd: '/', readOnly: true, hidden: [] }), 'true'];
  const { execa } = await import('execa');
  const r = await execa(bwrap, args, { reject: false, stdin: 'ignore', timeout: 10_000 });
  if (r.exitCode === 0) return { ok: true, bwrap };
  const said = String(r.stderr).trim().slice(0, 500);
  return { ok: false, ...diagnose(), outside: said };
}

/** Why bwrap exists but cannot make its namespaces, read from the kernel's switches. */
function diagnose(): { reason: string; fix: string } {
  const read = (p: string): string | undefined => {
    try {
      return fs.readFileSync(p, 'utf8').trim();
    } catch {
      return undefined;
    }
  };
  if (read('/proc/sys/kernel/apparmor_restrict_unprivileged_userns') === '1') {
    return {
      reason:
        'bubblewrap is installed but cannot start: AppArmor restricts unprivileged user namespaces (Ubuntu 23.10 and later)',
      fix: `Allow bwrap an AppArmor profile with "userns," (Ubuntu: sudo apt install apparmor-profiles and load /etc/apparmor.d/bwrap-userns-restrict), or sudo sysctl kernel.apparmor_restrict_unprivileged_userns=0, ${OFF_SETTING}.`,
    };
  }
  if (read('/proc/sys/kernel/unprivileged_userns_clone') === '0') {
    return {
      reason:
        'bubblewrap is installed but cannot start: unprivileged user namespaces are disabled (kernel.unprivileged_userns_clone = 0)',
      fix: `sudo sysctl kernel.unprivileged_userns_clone=1, ${OFF_SETTING}.`,
    };
  }
  if (read('/proc/sys/user/max_user_namespaces') === '0') {
    return {
      reason:
        'bubblewrap is installed but cannot start: user namespaces are disabled (user.max_user_namespaces = 0)',
      fix: `sudo sysctl user.max_user_namespaces=15000, ${OFF_SETTING}.`,
    };
  }
  return {
    reason:
      'bubblewrap is installed but could not start a sandbox (a container without namespace rights, or a setuid-less bwrap); its message is quoted',
    fix: `Run Cogito where bwrap can create namespaces (in Docker: --security-opt seccomp=unconfined or --privileged), ${OFF_SETTING}.`,
  };
}

/**
 * bwrap's arguments for `plan`, up to and including `--`; the program to run follows.
 * Mount order matters: each mount lies over the ones before it.
 */
export function bwrapArgs(plan: SandboxPlan): string[] {
  const args = ['--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc'];
  args.push('--size', String(TMP_BYTES), '--tmpfs', '/tmp');
  const inside = (p: string): boolean => isInside(plan.workspace, p);
  // A hidden folder holding the workspace is made read-only only after the workspace is
  // mounted into it (bwrap makes the mount point inside the tmpfs).
  const later: string[] = [];
  for (const h of plan.hidden.filter((p) => !inside(p))) args.push(...hide(h, later));
  if (plan.workspace !== '/') {
    args.push(plan.readOnly ? '--ro-bind' : '--bind', plan.workspace, plan.workspace);
  }
  for (const name of PROTECTED_NAMES) {
    const p = path.join(plan.workspace, name);
    if (plan.workspace !== '/' && fs.existsSync(p)) args.push('--ro-bind', p, p);
  }
  for (const h of plan.hidden.filter(inside)) args.push(...hide(h, later));
  for (const h of later) args.push('--remount-ro', h);
  args.push('--unshare-all', '--die-with-parent', '--new-session', '--chdir', plan.cwd);
  if (plan.infoFd !== undefined) args.push('--info-fd', String(plan.infoFd));
  args.push('--');
  return args;
}

/** Hides a folder behind an empty read-only tmpfs (a file behind /dev/null). */
function hide(p: string, later: string[]): string[] {
  let st: fs.Stats | undefined;
  try {
    st = fs.statSync(p);
  } catch {
    return [];
  }
  if (st.isDirectory()) {
    later.push(p);
    return ['--tmpfs', p];
  }
  return ['--ro-bind', '/dev/null', p];
}

/**
 * The shell line run inside: the limits first, then the command as `$1`, never pasted into
 * the script. No core dumps; files up to 1 GiB, so a disk fill stops at one file's cap; and
 * at most `maxProcesses` processes (threads count too), so a fork bomb meets "Cannot fork".
 * The process limit is counted per user namespace, so it holds for the sandbox of a normal
 * user; the kernel never applies it to root (uid 0), for whom `pidsCgroup.ts` holds it. bash names it `-u`, dash `-p`.
 */
export function shellArgs(command: string, maxProcesses = DEFAULT_MAX_PROCESSES): string[] {
  const n = Math.max(1, Math.floor(maxProcesses));
  return [
    '/bin/sh',
    '-c',
    `ulimit -c 0 2>/dev/null; ulimit -f ${FILE_SIZE_BLOCKS} 2>/dev/null; ulimit -u ${n} 2>/dev/null || ulimit -p ${n} 2>/dev/null; exec /bin/sh -c "$1"`,
    'cogito-run',
    command,
  ];
}

function isInside(root: string, p: string): boolean {
  const rel = path.relative(root, p);
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
}

function onPath(name: string): string | undefined {
  for (const dir of (process.env.PATH ?? '').split(path.delimiter)) {
    if (dir === '') continue;
    const p = path.join(dir, name);
    if (isExecutable(p)) return p;
  }
  return undefined;
}

function isExecutable(p: string): boolean {
  try {
    fs.accessSync(p, fs.constants.X_OK);
    return fs.statSync(p).isFile();
  } catch {
    return false;
  }
}
