/**
 * The macOS form of the `run` sandbox: a `sandbox-exec` (Seatbelt) profile with the rules the
 * bubblewrap sandbox has on Linux. Everything may be read but Cogito's home (its config holds
 * the API key); only the workspace (not for a read-only command), a temp folder of the
 * command's own and /dev/null may be written; the protected places inside the workspace
 * (`.git` and the others bubblewrap makes read-only) may not; and there is no network at all,
 * loopback included. Seatbelt takes the last rule that matches, so the denials come after the
 * allowances they narrow.
 *
 * Not used by `run` yet: it has never run on a Mac (this project's tests run on Linux), so
 * on macOS `run` is refused with the fix until it has (docs/SAFETY.md).
 */
import path from 'node:path';
import { PROTECTED_NAMES, type SandboxPlan } from './sandbox.js';

/** What the profile is made from: the Linux plan, and the command's own temp folder. */
export interface SeatbeltPlan extends SandboxPlan {
  /** A fresh folder for TMPDIR (macOS has no private /tmp to mount). */
  tmp: string;
}

/** An SBPL string literal: backslashes and quotes escaped, control characters refused. */
export function sbplString(value: string): string {
  // eslint-disable-next-line no-control-regex -- control characters are what is refused
  if (/[\u0000-\u001f\u007f]/.test(value)) {
    throw new Error(`a sandbox path holds a control character: ${JSON.stringify(value)}`);
  }
  return `"${value.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
}

/** The profile text for `plan` (see the module comment). */
export function seatbeltProfile(plan: SeatbeltPlan): string {
  const lines = [
    '(version 1)',
    '(deny default)',
    // Running programs, and the system's own services a program needs to start.
    '(allow process-exec)',
    '(allow process-fork)',
    '(allow signal (target same-sandbox))',
    '(allow sysctl-read)',
    '(allow mach-lookup)',
    '(allow ipc-posix-shm)',
    '(allow file-read*)',
    '(allow file-write-data (literal "/dev/null"))',
    '(allow file-ioctl (literal "/dev/tty") (literal "/dev/null"))',
    `(allow file-write* (subpath ${sbplString(plan.tmp)}))`,
  ];
  if (!plan.readOnly) lines.push(`(allow file-write* (subpath ${sbplString(plan.workspace)}))`);
  const guarded = PROTECTED_NAMES.map((name) => path.join(plan.workspace, name));
  if (guarded.length > 0) {
    lines.push(`(deny file-write* ${guarded.map((p) => `(subpath ${sbplString(p)})`).join(' ')})`);
  }
  for (const h of plan.hidden) {
    lines.push(`(deny file-read* file-write* (subpath ${sbplString(h)}))`);
  }
  // No network, loopback included: an exfiltration path and a way to reach local services.
  lines.push('(deny network*)');
  return `${lines.join('\n')}\n`;
}

/** `sandbox-exec`'s arguments for `plan`, up to the program to run (which follows). */
export function seatbeltArgs(plan: SeatbeltPlan): string[] {
  return ['-p', seatbeltProfile(plan)];
}
