#!/usr/bin/env node
// The `cogito` command (and `npm start`).
// - An installed copy (no .git beside package.json: what `npm install -g` puts on disk) runs
//   the production build dist/cogito.mjs, which `npm pack` makes (the prepack script). The
//   package carries no TypeScript sources and no tsx, so there is nothing else to run.
// - A checkout runs that build while it matches the sources; otherwise the TypeScript entry
//   through tsx's loader, the same program with a slower start. "Matches": dist/build.json
//   lists the project files that went into the bundle, the package manifests and lockfiles,
//   and when the build read them; none may have changed since, so a checkout, an edit or a
//   dependency change after the build never runs stale code. COGITO_FROM_SOURCE=1 always
//   runs the sources.
import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import process from 'node:process';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const entry = path.join(root, 'dist', 'cogito.mjs');

/** The bundle's path when it exists and no source file it was built from changed since. */
function freshBuild() {
  if (process.env.COGITO_FROM_SOURCE === '1') return undefined;
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

if (!existsSync(path.join(root, '.git'))) {
  if (!existsSync(entry)) {
    process.stderr.write(
      `cogito: this installed copy has no build (${entry} is missing). ` +
        'Reinstall it from a packed tarball (npm pack makes the build), or run it from a git checkout.\n',
    );
    process.exit(1);
  }
  await import(pathToFileURL(entry).href);
} else {
  const built = freshBuild();
  if (built !== undefined) {
    await import(pathToFileURL(built).href);
  } else {
    const { register } = await import('tsx/esm/api');
    register();
    await import('./cogito.ts');
  }
}
