#!/usr/bin/env node
// The installed `cogito` command (and `npm start`). It runs the production build,
// dist/cogito.mjs (`npm run build`; npm's prepare hook makes it on install), while that build
// matches the sources; otherwise the TypeScript entry through tsx's loader, the same program
// with a slower start. "Matches": dist/build.json lists the project files that went into the
// bundle, the package manifests and lockfiles, and when the build read them; none may have
// changed since, so a checkout, an edit or a dependency change after the build never runs
// stale code. COGITO_FROM_SOURCE=1 always runs the sources.
import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import process from 'node:process';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** The bundle's path when it exists and no source file it was built from changed since. */
function freshBuild() {
  if (process.env.COGITO_FROM_SOURCE === '1') return undefined;
  const entry = path.join(root, 'dist', 'cogito.mjs');
  try {
    const manifest = path.join(root, 'dist', 'build.json');
    const { sourcesAt, inputs, packages } = JSON.parse(readFileSync(manifest, 'utf8'));
    if (typeof sourcesAt !== 'number' || !Array.isArray(inputs) || inputs.length === 0) {
      return undefined;
    }
    statSync(entry);
    for (const input of [...inputs, ...(Array.isArray(packages) ? packages : [])]) {
      if (statSync(path.join(root, input)).mtimeMs > sourcesAt) return undefined;
    }
    return entry;
  } catch {
    // No build, an unreadable manifest, or a source file gone: run the sources.
    return undefined;
  }
}

const built = freshBuild();
if (built !== undefined) {
  await import(pathToFileURL(built).href);
} else {
  const { register } = await import('tsx/esm/api');
  register();
  await import('./cogito.ts');
}
