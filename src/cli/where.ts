import { existsSync } from 'node:fs';
import { appPaths, builtinPersonasDir, resolveHome, type HomeSource } from '../config/paths.js';

/** Why the home is where it is, in `cogito --where`. */
const SOURCE_NOTE: Record<HomeSource, string> = {
  flag: 'from --home',
  env: 'from COGITO_HOME',
  project: 'a git checkout of Cogito: its project folder',
  user: 'an installed copy: in your user folder',
};

/**
 * `cogito --where`: the app home and the files in use, one per line, so scripts can pick a
 * line and people can see why the home is where it is. Reads nothing and creates nothing.
 */
export function describeWhere(opts: {
  home?: string | undefined;
  env: NodeJS.ProcessEnv;
  cwd?: string;
}): string {
  const { home, source } = resolveHome({
    flag: opts.home,
    env: opts.env,
    ...(opts.cwd ? { cwd: opts.cwd } : {}),
  });
  const paths = appPaths(home);
  const missing = (p: string): string => (existsSync(p) ? '' : ' (not created yet)');
  return [
    `home      ${home} (${SOURCE_NOTE[source]})${missing(home)}`,
    `config    ${paths.config}${missing(paths.config)}`,
    `data      ${paths.data}${missing(paths.data)}`,
    `personas  ${builtinPersonasDir()} (built in)`,
    `          ${paths.personas} (yours)${missing(paths.personas)}`,
  ].join('\n');
}
