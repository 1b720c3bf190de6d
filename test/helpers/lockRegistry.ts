/**
 * A loopback npm registry built from the project's package-lock.json and the local npm cache,
 * so a test can `npm install -g` the packed package without reaching the internet.
 *
 * Why not plain `npm install -g --offline`: for a package installed without a lockfile
 * (any global install), npm 11 resolves every dependency from its *full* registry document,
 * and `npm ci` (which fills the cache on CI) never downloads those, only the tarballs. This
 * server answers the documents from what the lockfile records (versions, dependencies,
 * engines, os/cpu, bin, integrity) and the tarballs from the cache's content store, looked up
 * by their integrity. A tarball not in the cache is a 404: the install fails loudly rather
 * than going to the network.
 */
import { readFile } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';

/** The fields of a lockfile entry that a registry document carries. */
const MANIFEST_FIELDS = [
  'dependencies',
  'optionalDependencies',
  'peerDependencies',
  'peerDependenciesMeta',
  'bin',
  'engines',
  'os',
  'cpu',
  'libc',
  'license',
] as const;

interface LockEntry {
  name?: string;
  version?: string;
  integrity?: string;
  link?: boolean;
  [field: string]: unknown;
}

type Versions = Map<string, Map<string, LockEntry>>;

export interface LockRegistry {
  /** `http://127.0.0.1:PORT/`, for npm's `--registry`. */
  url: string;
  /** Paths requested that the registry could not answer (missing from lock or cache). */
  misses: string[];
  close(): Promise<void>;
}

/** Every package version in the lockfile, by name (aliases under their real name). */
function versionsOf(lock: { packages: Record<string, LockEntry> }): Versions {
  const byName: Versions = new Map();
  for (const [where, entry] of Object.entries(lock.packages)) {
    const at = where.lastIndexOf('node_modules/');
    if (at === -1 || entry.link || !entry.version || !entry.integrity) continue;
    const name = entry.name ?? where.slice(at + 'node_modules/'.length);
    const versions = byName.get(name) ?? new Map<string, LockEntry>();
    versions.set(entry.version, entry);
    byName.set(name, versions);
  }
  return byName;
}

/** Where npm's content store keeps the data with this integrity (`sha512-<base64>`). */
export function cachedContentPath(cacheDir: string, integrity: string): string {
  const [algorithm, digest] = integrity.split(/-(.*)/s) as [string, string];
  const hex = Buffer.from(digest, 'base64').toString('hex');
  return path.join(
    cacheDir,
    '_cacache',
    'content-v2',
    algorithm,
    hex.slice(0, 2),
    hex.slice(2, 4),
    hex.slice(4),
  );
}

function packument(name: string, versions: Map<string, LockEntry>, base: string): object {
  const docs: Record<string, object> = {};
  for (const [version, entry] of versions) {
    const doc: Record<string, unknown> = { name, version };
    for (const field of MANIFEST_FIELDS) if (entry[field] !== undefined) doc[field] = entry[field];
    doc.dist = {
      integrity: entry.integrity,
      tarball: `${base}-/tarball/${encodeURIComponent(name)}/${version}.tgz`,
    };
    docs[version] = doc;
  }
  const latest = [...versions.keys()].at(-1)!;
  return { name, 'dist-tags': { latest }, versions: docs };
}

/**
 * Starts the registry for `lockFile`, serving tarballs out of the npm cache `cacheDir`.
 * Packages named in `withhold` are answered 404, as a registry without them would.
 */
export async function startLockRegistry(
  lockFile: string,
  cacheDir: string,
  withhold: readonly string[] = [],
): Promise<LockRegistry> {
  const byName = versionsOf(JSON.parse(await readFile(lockFile, 'utf8')));
  for (const name of withhold) byName.delete(name);
  const misses: string[] = [];
  let base = '';
  const server = http.createServer((req, res) => {
    const url = decodeURIComponent((req.url ?? '/').split('?')[0]!.slice(1));
    const miss = (): void => {
      misses.push(url);
      res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":"not found"}');
    };
    const tarball = /^-\/tarball\/(.+)\/([^/]+)\.tgz$/.exec(url);
    if (tarball) {
      const integrity = byName.get(tarball[1]!)?.get(tarball[2]!)?.integrity;
      if (!integrity) return miss();
      readFile(cachedContentPath(cacheDir, integrity)).then(
        (data) => res.writeHead(200, { 'content-type': 'application/octet-stream' }).end(data),
        miss,
      );
      return;
    }
    const versions = byName.get(url);
    if (!versions) return miss();
    res
      .writeHead(200, { 'content-type': 'application/json' })
      .end(JSON.stringify(packument(url, versions, base)));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  return {
    url: base,
    misses,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
