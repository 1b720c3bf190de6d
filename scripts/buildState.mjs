/**
 * Whether a checkout's production build (dist/) still matches what it was built from.
 *
 * `dist/build.json` lists the project files that went into the bundle, the package manifests
 * and lockfiles, when the build read them (`sourcesAt`) and a hash of their contents
 * (`inputsHash`). The decision is the content hash: a `git pull` or a checkout that rewrites
 * files with the same bytes leaves the build fresh, an edit makes it stale. Hashing the ~2.5 MB
 * of inputs costs 60–100 ms, more than half of a start, so it runs only when a file's time
 * says it may have changed: with every time older than the build, the build is fresh without
 * reading a byte (a stat of each file, ~10 ms).
 *
 * Plain JavaScript with Node's modules only: `bin/cogito.js` imports it before anything is
 * built, and the benchmarks use the same answer.
 */
import { createHash } from 'node:crypto';
import { readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import process from 'node:process';

/** The hash of the files' names and contents, in the order given. */
export function hashInputs(root, files) {
  const hash = createHash('sha256');
  for (const file of files) {
    hash.update(`${file}\0`);
    hash.update(readFileSync(path.join(root, file)));
    hash.update('\0');
  }
  return hash.digest('hex');
}

/** The manifest of the build in `dist`, or undefined when there is none that can be used. */
export function readManifest(dist) {
  try {
    const manifest = JSON.parse(readFileSync(path.join(dist, 'build.json'), 'utf8'));
    const { sourcesAt, inputs, packages, inputsHash } = manifest;
    if (typeof sourcesAt !== 'number' || typeof inputsHash !== 'string') return undefined;
    if (!Array.isArray(inputs) || inputs.length === 0 || !Array.isArray(packages)) return undefined;
    return manifest;
  } catch {
    return undefined;
  }
}

/**
 * `{ fresh: true }`, or `{ fresh: false, why }` with a reason a user can read.
 * @param {string} root the checkout
 * @param {string} [dist] the build's folder (default `<root>/dist`)
 */
export function buildState(root, dist = path.join(root, 'dist')) {
  const manifest = readManifest(dist);
  if (!manifest) return { fresh: false, why: 'there is no build in dist/' };
  try {
    statSync(path.join(dist, 'cogito.mjs'));
  } catch {
    return { fresh: false, why: 'dist/cogito.mjs is missing' };
  }
  const files = [...manifest.inputs, ...manifest.packages];
  let touched;
  try {
    // Joined by hand, not with path.join: ~550 joins in a row made V8 optimize path's
    // normalizer with its top compiler at every start, and the compiler's code pages stayed
    // in the screen's memory (Node 24: 82 -> 77 MB at the first frame; bench/README.md).
    // `root` is absolute and the manifest's names are relative, so there is nothing to normalize.
    const prefix = root + path.sep;
    touched = files.find((file) => statSync(prefix + file).mtimeMs > manifest.sourcesAt);
  } catch (error) {
    return { fresh: false, why: `a file the build was made from is gone (${error.path ?? error})` };
  }
  if (touched === undefined) return { fresh: true };
  const checkedAt = Date.now();
  let now;
  try {
    now = hashInputs(root, files);
  } catch (error) {
    return {
      fresh: false,
      why: `a file the build was made from is unreadable (${error.path ?? error})`,
    };
  }
  if (now !== manifest.inputsHash)
    return { fresh: false, why: `the sources changed since the build (${touched}, …)` };
  // Same bytes, newer times (a pull, a checkout, a touch): note the new time, so the next
  // start need not hash again. A manifest that cannot be written only costs that hash.
  try {
    const next = path.join(dist, `build.json.${process.pid}.tmp`);
    writeFileSync(next, `${JSON.stringify({ ...manifest, sourcesAt: checkedAt }, null, 2)}\n`);
    renameSync(next, path.join(dist, 'build.json'));
  } catch {
    // Read-only checkout: fine.
  }
  return { fresh: true };
}
