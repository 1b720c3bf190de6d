import { ok } from '../types.js';
import type { Tool } from '../types.js';
import { guard, optionalStringArg, stringArg, ToolFailure } from '../web/errors.js';
import { findApp, normalizeName } from './match.js';
import type { AppInfo, SystemPlatform } from './types.js';
import { launchNeed } from './launchDetail.js';

/** Resolves the platform or explains that this OS has none. */
export type PlatformGetter = () => SystemPlatform;

/** Renders the app list: one app per line, aliases in parentheses. */
function renderApps(apps: readonly AppInfo[], filter: string | undefined): string {
  if (apps.length === 0) {
    return filter ? `No installed app matches "${filter}".` : 'No installed apps were found.';
  }
  const lines = apps.map((app) =>
    app.aliases.length > 0 ? `${app.name} (${app.aliases.join(', ')})` : app.name,
  );
  const head = filter ? `${apps.length} apps matching "${filter}":` : `${apps.length} apps:`;
  return [head, ...lines].join('\n');
}

/** Installed apps, sorted by name, optionally filtered by a substring of a name or alias. */
async function listAppsSorted(
  platform: SystemPlatform,
  signal: AbortSignal,
  filter?: string,
): Promise<AppInfo[]> {
  const apps = await platform.listApps(signal);
  const wanted = filter ? normalizeName(filter) : '';
  return apps
    .filter(
      (app) =>
        wanted === '' ||
        [app.name, ...app.aliases].some((name) => normalizeName(name).includes(wanted)),
    )
    .sort((a, b) => a.name.localeCompare(b.name));
}

/** Finds one app by name or throws `not_found` / `invalid_args` naming the near matches. */
function requireApp(apps: readonly AppInfo[], name: string): AppInfo {
  const lookup = findApp(apps, name);
  if (lookup.kind === 'found') return lookup.app;
  if (lookup.kind === 'ambiguous') {
    throw new ToolFailure(
      'invalid_args',
      `"${name}" matches several apps: ${lookup.candidates.map((app) => app.name).join(', ')}. Use the full name.`,
    );
  }
  const hint =
    lookup.near.length > 0
      ? ` Did you mean: ${lookup.near.join(', ')}?`
      : ' listApps() shows what is installed.';
  throw new ToolFailure('not_found', `No installed app is called "${name}".${hint}`);
}

/** `listApps(filter?)`. */
export function createListAppsTool(getPlatform: PlatformGetter): Tool {
  return {
    name: 'listApps',
    kind: 'read',
    description: 'Lists the applications installed on this computer (names usable with openApp).',
    params: [
      {
        name: 'filter',
        type: 'string',
        optional: true,
        description: 'only apps whose name contains this',
      },
    ],
    run: (args, ctx) =>
      guard(async () => {
        const filter = optionalStringArg(args, 0, 'filter')?.trim() || undefined;
        const apps = await listAppsSorted(getPlatform(), ctx.signal, filter);
        return ok(renderApps(apps, filter), `${apps.length} apps`);
      }),
  };
}

/** `openApp(name)`. */
export function createOpenAppTool(getPlatform: PlatformGetter): Tool {
  return {
    name: 'openApp',
    kind: 'process',
    description:
      'Starts an installed application by its name (as listApps shows it; case does not matter).',
    params: [{ name: 'name', type: 'string', description: 'the app name, e.g. "Firefox"' }],
    // The card shows what will really run; an unknown app has nothing to show (run reports it).
    async needsApproval(args, ctx) {
      const platform = getPlatform();
      const apps = await platform.listApps(ctx.signal);
      const lookup = findApp(apps, stringArg(args, 0, 'name'));
      return lookup.kind === 'found' ? launchNeed(platform.label, lookup.app, ctx.lang) : undefined;
    },
    run: (args, ctx) =>
      guard(async () => {
        const name = stringArg(args, 0, 'name');
        const platform = getPlatform();
        const app = requireApp(await platform.listApps(ctx.signal), name);
        await platform.openApp(app, ctx.signal);
        return ok(`Started ${app.name}.`, `started ${app.name}`);
      }),
  };
}
