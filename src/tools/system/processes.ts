import { ok } from '../types.js';
import type { Tool } from '../types.js';
import { guard, optionalStringArg, stringArg, ToolFailure } from '../web/errors.js';
import type { PlatformGetter } from './apps.js';
import { findApp, nearNames, normalizeName } from './match.js';
import type { ProcessInfo } from './types.js';
import { counted } from '../../core/plural.js';

/**
 * Processes whose loss ends the user's session or the system; closeApp refuses them even
 * when asked by exact name.
 */
const PROTECTED = new Set(
  [
    'init',
    'systemd',
    'kthreadd',
    'launchd',
    'kernel_task',
    'loginwindow',
    'windowserver',
    'dock',
    'finder',
    'xorg',
    'xwayland',
    'gnome-shell',
    'kwin_x11',
    'kwin_wayland',
    'plasmashell',
    'gdm',
    'sddm',
    'lightdm',
    'dbus-daemon',
    'sshd',
    'login',
    'system',
    'system idle process',
    'smss',
    'csrss',
    'wininit',
    'winlogon',
    'services',
    'lsass',
    'svchost',
    'explorer',
    'dwm',
  ].map(normalizeName),
);

/** Renders processes, biggest memory first, as aligned columns. */
function renderProcesses(processes: readonly ProcessInfo[], filter: string | undefined): string {
  if (processes.length === 0)
    return filter ? `No running process matches "${filter}".` : 'No processes were found.';
  const sorted = [...processes].sort(
    (a, b) => (b.memoryKb ?? -1) - (a.memoryKb ?? -1) || a.pid - b.pid,
  );
  const lines = sorted.map((entry) => {
    const memory = entry.memoryKb === undefined ? '-' : `${Math.round(entry.memoryKb / 1024)} MB`;
    return `${String(entry.pid).padStart(7)}  ${memory.padStart(8)}  ${entry.name}`;
  });
  const count = counted(processes.length, 'process', 'processes');
  const head = filter ? `${count} matching "${filter}":` : `${count}:`;
  return [head, `${'PID'.padStart(7)}  ${'MEMORY'.padStart(8)}  NAME`, ...lines].join('\n');
}

/** `listProcesses(filter?)`. */
export function createListProcessesTool(getPlatform: PlatformGetter): Tool {
  return {
    name: 'listProcesses',
    kind: 'read',
    description: 'Lists running processes (pid, memory, name), largest first.',
    params: [
      {
        name: 'filter',
        type: 'string',
        optional: true,
        description: 'only processes whose name contains this',
      },
    ],
    run: (args, ctx) =>
      guard(async () => {
        const filter = optionalStringArg(args, 0, 'filter')?.trim() || undefined;
        const wanted = filter ? normalizeName(filter) : '';
        const processes = (await getPlatform().listProcesses(ctx.signal)).filter(
          (entry) => wanted === '' || normalizeName(entry.name).includes(wanted),
        );
        return ok(renderProcesses(processes, filter), `${processes.length} processes`);
      }),
  };
}

/**
 * The processes closeApp should stop for `name`: exact (case-insensitive) process-name
 * matches, plus those of an installed app of that exact name (its process names, or a
 * program inside its bundle). Never this process or its parent.
 */
function processesToClose(
  processes: readonly ProcessInfo[],
  name: string,
  app: { processNames: string[]; source: string } | undefined,
): ProcessInfo[] {
  const names = new Set([normalizeName(name), ...(app?.processNames ?? []).map(normalizeName)]);
  const bundlePrefix = app?.source.endsWith('.app') ? `${app.source}/` : undefined;
  return processes.filter(
    (entry) =>
      entry.pid !== process.pid &&
      entry.pid !== process.ppid &&
      entry.pid > 1 &&
      (names.has(normalizeName(entry.name)) ||
        (bundlePrefix !== undefined && entry.command?.startsWith(bundlePrefix) === true)),
  );
}

/** `closeApp(name)`. */
export function createCloseAppTool(getPlatform: PlatformGetter): Tool {
  return {
    name: 'closeApp',
    kind: 'process',
    description:
      'Asks a running application to quit, by app or process name (exact, case-insensitive).',
    params: [
      { name: 'name', type: 'string', description: 'the app or process name, e.g. "firefox"' },
    ],
    run: (args, ctx) =>
      guard(async () => {
        const name = stringArg(args, 0, 'name').trim();
        if (PROTECTED.has(normalizeName(name))) {
          throw new ToolFailure(
            'denied',
            `Refused: ${name} is part of the operating system or the desktop session.`,
          );
        }
        const platform = getPlatform();
        const [processes, apps] = await Promise.all([
          platform.listProcesses(ctx.signal),
          platform.listApps(ctx.signal).catch(() => []),
        ]);
        const lookup = findApp(apps, name);
        // Only an exact app match widens the set: a fuzzy one must never pick what to kill.
        const app =
          lookup.kind === 'found' &&
          [lookup.app.name, ...lookup.app.aliases, ...lookup.app.processNames].some(
            (key) => normalizeName(key) === normalizeName(name),
          )
            ? lookup.app
            : undefined;
        const targets = processesToClose(processes, name, app).filter(
          (entry) => !PROTECTED.has(normalizeName(entry.name)),
        );
        if (targets.length === 0) {
          const near = nearNames([...new Set(processes.map((entry) => entry.name))], name);
          const hint =
            near.length > 0
              ? ` Running with similar names: ${near.join(', ')}.`
              : ' listProcesses() shows what is running.';
          throw new ToolFailure('not_found', `No running process is called "${name}".${hint}`);
        }
        const summary = await platform.closeProcesses(targets, ctx.signal);
        return ok(`Asked ${app?.name ?? name} to close. ${summary}`, `closed ${app?.name ?? name}`);
      }),
  };
}
