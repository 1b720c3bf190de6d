/**
 * An esbuild plugin: yoga-layout (Ink's layout engine) ships its WebAssembly as a base64
 * string and decodes it at start-up in a JavaScript loop, one `charCodeAt` per byte: 17 ms
 * of every start on the bench machine (bench/README.md, "Start-up"). Node's own decoder,
 * `Buffer.from(…, 'base64')`, does the same in native code. The loop is swapped for it in
 * the bundle; the bytes are the same (test/build/yogaDecode.test.ts compares them).
 *
 * The pattern is the pinned yoga-layout's (STACK.md): if an upgrade changes it, the build
 * fails and says so, rather than silently keeping the slow path.
 */
import { readFile } from 'node:fs/promises';

/** The loop as yoga-layout 3.2 writes it (`xa` is its atob, `a` the data URI). */
export const YOGA_LOOP =
  'var b=xa(a.slice(37)),c=new Uint8Array(b.length);for(a=0;a<b.length;++a)c[a]=b.charCodeAt(a);var d=c';
export const YOGA_BUFFER = "var d=new Uint8Array(Buffer.from(a.slice(37),'base64'))";

/** The yoga source with its decode loop replaced; throws when the loop is not there once. */
export function patchYoga(source) {
  const at = source.indexOf(YOGA_LOOP);
  if (at < 0 || source.indexOf(YOGA_LOOP, at + 1) >= 0) {
    throw new Error(
      "yoga-layout's base64 decode loop was not found once: scripts/yogaDecode.mjs was written " +
        'for yoga-layout 3.2. Check its binaries/yoga-wasm-base64-esm.js and update the pattern.',
    );
  }
  return source.replace(YOGA_LOOP, YOGA_BUFFER);
}

export const yogaDecode = {
  name: 'yoga-buffer-decode',
  setup(build) {
    build.onLoad(
      { filter: /yoga-layout[\\/]dist[\\/]binaries[\\/]yoga-wasm-base64-esm\.js$/ },
      async (args) => ({
        contents: patchYoga(await readFile(args.path, 'utf8')),
        loader: 'js',
      }),
    );
  },
};
