/**
 * An esbuild plugin: yoga-layout (Ink's layout engine) ships its WebAssembly as a base64
 * string and decodes it at start-up in a JavaScript loop, one `charCodeAt` per byte: 17 ms
 * of every start on the bench machine (bench/README.md, "Start-up"). Node's own decoder,
 * `Buffer.from(…, 'base64')`, does the same in native code. The loop is swapped for it in
 * the bundle; the bytes are the same (test/build/yogaDecode.test.ts compares them).
 *
 * And where a global `fetch` exists (Node ≥ 18) yoga first fetches its own `data:` URI through
 * it: that loads Node's undici and decodes the base64 again, ~35 ms before the first frame,
 * then uses the bytes above anyway. The bundle skips straight to them.
 *
 * The patterns are the pinned yoga-layout's (STACK.md): if an upgrade changes them, the build
 * fails and says so, rather than silently keeping the slow path.
 */
import { readFile } from 'node:fs/promises';

/** The loop as yoga-layout 3.2 writes it (`xa` is its atob, `a` the data URI). */
export const YOGA_LOOP =
  'var b=xa(a.slice(37)),c=new Uint8Array(b.length);for(a=0;a<b.length;++a)c[a]=b.charCodeAt(a);var d=c';
export const YOGA_BUFFER = "var d=new Uint8Array(Buffer.from(a.slice(37),'base64'))";
/** The start of yoga's `getBinaryPromise`: `wa()` is the synchronous decode above. */
export const YOGA_FETCH = 'function ya(){return w||"function"!=typeof fetch?';
export const YOGA_NO_FETCH = 'function ya(){return true?';

/** `source` with `from` replaced by `to`; throws when `from` is not there exactly once. */
function replaceOnce(source, from, to, what) {
  const at = source.indexOf(from);
  if (at < 0 || source.indexOf(from, at + 1) >= 0) {
    throw new Error(
      `yoga-layout's ${what} was not found once: scripts/yogaDecode.mjs was written ` +
        'for yoga-layout 3.2. Check its binaries/yoga-wasm-base64-esm.js and update the pattern.',
    );
  }
  return source.replace(from, to);
}

/** The yoga source with its decode loop and its fetch of the data URI replaced. */
export function patchYoga(source) {
  const decoded = replaceOnce(source, YOGA_LOOP, YOGA_BUFFER, 'base64 decode loop');
  return replaceOnce(decoded, YOGA_FETCH, YOGA_NO_FETCH, 'fetch of its data URI');
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
