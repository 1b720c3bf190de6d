/**
 * Where Cogito itself lives, for the protected-places policy: the app home's state files
 * and the install folder's program files. Paths come from the app paths object and the
 * package root, never from a fixed location, so an installed copy (home in ~/.cogito) and
 * a git checkout (home = project folder) are both covered.
 */
import path from 'node:path';
import { appPaths, projectRoot } from '../config/paths.js';
import { LOCK_FILE } from '../config/paths.js';
import type { OwnPlaces } from './protectedPlaces.js';
import { realpathLoose } from '../core/realpath.js';

/** The entries of Cogito's package folder that are its program (what an edit would subvert). */
const PROGRAM_ENTRIES = [
  'package.json',
  'package-lock.json',
  'bin',
  'src',
  'components',
  'dist',
  'personas',
  'scripts',
  'node_modules',
];

/**
 * {@link ownPlaces} with every path made real (symlinks resolved), since the resolver
 * compares real paths: a home under a symlinked /tmp must still match.
 */
export async function realOwnPlaces(home: string, installRoot?: string): Promise<OwnPlaces> {
  const real = async (p: string): Promise<string> =>
    realpathLoose(path.resolve(p)).catch(() => path.resolve(p));
  return ownPlaces(await real(home), await real(installRoot ?? projectRoot()));
}

/** Cogito's own places for a given app home (and, by default, the running package root). */
export function ownPlaces(home: string, installRoot: string = projectRoot()): OwnPlaces {
  const own = appPaths(home);
  return {
    home: own.home,
    homeItems: [own.config, own.data, own.personas, own.persona, path.join(home, LOCK_FILE)],
    installRoot,
    installItems: PROGRAM_ENTRIES.map((entry) => path.join(installRoot, entry)),
  };
}
