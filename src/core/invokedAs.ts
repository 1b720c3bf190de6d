/**
 * The command that runs this Cogito, as the user would type it again, for hints ("run cogito
 * start"). A clone has no `cogito` on its PATH (issue 33: hints named a command a clone does
 * not have): run through `npm start` it is `npm start --`; started as `node bin/cogito.js` it
 * is that path; installed (npm links a `cogito` script), `cogito`.
 */
import path from 'node:path';

export interface Invocation {
  env?: NodeJS.ProcessEnv;
  /** process.argv: [node, script, ...]. */
  argv?: readonly string[];
  cwd?: string;
}

/** `cogito`, `npm start --`, or `node <path to bin/cogito.js>`. */
export function invokedAs(opts: Invocation = {}): string {
  const env = opts.env ?? process.env;
  const script = (opts.argv ?? process.argv)[1] ?? '';
  const name = path.basename(script);
  // npm's link (`<prefix>/bin/cogito`, `cogito.cmd`) or a package's own bin run by npx.
  if (
    name === 'cogito' ||
    name === 'cogito.cmd' ||
    script.includes(`${path.sep}node_modules${path.sep}`)
  )
    return 'cogito';
  if (env.npm_lifecycle_event === 'start' && env.npm_package_name === 'cogito')
    return 'npm start --';
  if (!/cogito\.[cm]?js$/.test(name)) return 'cogito';
  const rel = path.relative(opts.cwd ?? process.cwd(), script);
  const shown = rel === '' || rel.startsWith('..') || path.isAbsolute(rel) ? script : rel;
  return `node ${/\s/.test(shown) ? JSON.stringify(shown) : shown}`;
}
