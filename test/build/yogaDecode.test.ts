/**
 * The bundle decodes yoga's WebAssembly with Buffer instead of yoga's byte loop
 * (scripts/yogaDecode.mjs): the patched source must give the very bytes the loop gives.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { YOGA_FETCH, YOGA_LOOP, patchYoga } from '../../scripts/yogaDecode.mjs';

const yogaFile = path.resolve('node_modules/yoga-layout/dist/binaries/yoga-wasm-base64-esm.js');

/** Runs one decode (the loop or its replacement) as yoga's function body does. */
function decodeWith(body: string, dataUri: string): Uint8Array<ArrayBuffer> {
  const run = new Function('a', 'xa', 'Buffer', `${body};return d;`) as (
    a: string,
    xa: (s: string) => string,
    b: typeof Buffer,
  ) => Uint8Array<ArrayBuffer>;
  return run(dataUri, atob, Buffer);
}

describe("yoga's decode", () => {
  const source = readFileSync(yogaFile, 'utf8');
  const uri = /H="(data:application\/octet-stream;base64,[^"]+)"/.exec(source)?.[1] ?? '';

  test('the pinned yoga holds the loop once, and the patch removes it', () => {
    expect(uri.length).toBeGreaterThan(1000);
    const patched = patchYoga(source);
    expect(patched).not.toContain(YOGA_LOOP);
    expect(patched).toContain("Buffer.from(a.slice(37),'base64')");
  });

  test('the patched yoga never fetches its data URI (that loads undici at start)', () => {
    expect(source).toContain(YOGA_FETCH);
    const patched = patchYoga(source);
    expect(patched).not.toContain(YOGA_FETCH);
    expect(patched).not.toMatch(/function ya\(\)\{[^}]*fetch\(/);
  });

  test('gives the same bytes as the loop, and a valid WebAssembly module', () => {
    const loop = decodeWith(YOGA_LOOP, uri);
    const fast = decodeWith("var d=new Uint8Array(Buffer.from(a.slice(37),'base64'))", uri);
    expect(Buffer.compare(Buffer.from(loop), Buffer.from(fast))).toBe(0);
    expect(WebAssembly.validate(fast)).toBe(true);
  });

  test('a changed package fails the build with what to do', () => {
    expect(() => patchYoga(source.replace(YOGA_LOOP, 'var d=0'))).toThrow(/update the pattern/);
    expect(() => patchYoga(source.replace(YOGA_FETCH, 'function ya(){return '))).toThrow(
      /fetch of its data URI/,
    );
  });
});
