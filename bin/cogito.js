#!/usr/bin/env node
// The `cogito` command (and `npm start`).
// - An installed copy (no .git beside package.json: what `npm install -g` puts on disk) runs
//   the production build dist/cogito.mjs, which `npm pack` makes (the prepack script). The
//   package carries no TypeScript sources and no tsx, so there is nothing else to run.
// - A checkout runs that build while it matches the sources (a hash of their contents), and
//   rebuilds it first, saying so, when not (scripts/checkoutBuild.mjs); only a build that
//   fails runs the TypeScript sources through tsx, with a line saying why the start is slow.
//   COGITO_FROM_SOURCE=1 always runs the sources.
import { existsSync, readFileSync } from 'node:fs';
import module from 'node:module';
import path from 'node:path';
import process from 'node:process';
import { fileURLToPath, pathToFileURL } from 'node:url';

// Node 22.1+ keeps the compiled code of the modules it loads (V8's code cache, in the
// temporary folder, checked against each file's contents): later starts skip most of
// compiling the 2 MB bundle. Absent on Node 20, where this does nothing.
if (typeof module.enableCompileCache === 'function') module.enableCompileCache();

// How V8 grows and compiles, for a program that stays up for days (bin/v8Flags.js).
import './v8Flags.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const entry = path.join(root, 'dist', 'cogito.mjs');

/** `cogito --version` alone: package.json's version (as src/cli/main.ts prints it), or undefined. */
function versionOnly(argv) {
  if (argv.length !== 1 || (argv[0] !== '--version' && argv[0] !== '-v')) return undefined;
  try {
    const { version } = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'));
    return typeof version === 'string' ? version : undefined;
  } catch {
    return undefined;
  }
}

// The version needs neither the bundle nor a check that it is fresh (a checkout stats every
// source file for that): answered here, it takes about what `node -e 0` takes.
const version = versionOnly(process.argv.slice(2));

if (version !== undefined) {
  process.stdout.write(`cogito ${version}\n`);
} else if (!existsSync(path.join(root, '.git'))) {
  if (!existsSync(entry)) {
    process.stderr.write(
      `cogito: this installed copy has no build (${entry} is missing). ` +
        'Reinstall it from a packed tarball (npm pack makes the build), or run it from a git checkout.\n',
    );
    process.exit(1);
  }
  await import(pathToFileURL(entry).href);
} else {
  const built =
    process.env.COGITO_FROM_SOURCE === '1'
      ? undefined
      : await (
          await import('../scripts/checkoutBuild.mjs')
        ).checkoutBuild(root, { stderr: process.stderr });
  if (built !== undefined) {
    await import(pathToFileURL(built).href);
  } else {
    const { register } = await import('tsx/esm/api');
    register();
    await import('./cogito.ts');
  }
}
