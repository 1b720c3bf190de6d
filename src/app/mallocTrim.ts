/**
 * Gives the C allocator's free pages back to the system: glibc's `malloc_trim(0)`.
 *
 * Why: V8 and Node allocate outside the JavaScript heap with malloc (the parser's zones for
 * 2 MB of modules at start-up, buffers, the compile threads' zones). Once freed, glibc keeps
 * those pages in its arenas, resident: 10-15 MB of an idle screen's RSS against 3 MB for a bare
 * `node` (bench/README.md, "Idle memory, issue 41"). Only a trim hands them back, and Node
 * offers no way to call it, so it is reached through koffi's foreign-function interface.
 *
 * Linux with glibc only: elsewhere (macOS, musl, Windows) there is no `malloc_trim` and this
 * is a no-op. Loaded on first use, never at start-up: koffi's native module costs ~7 ms and
 * ~1 MB, paid once, in a quiet moment.
 */
import { createRequire } from 'node:module';

/** Trims the allocator; returns whether it ran (false where there is none). */
export type MallocTrim = () => boolean;

type TrimFn = (pad: number) => number;

export function createMallocTrim(platform: NodeJS.Platform = process.platform): MallocTrim {
  // undefined: not loaded yet; null: not available here, never tried again (every call is
  // then a no-op returning false).
  let trim: TrimFn | null | undefined = platform === 'linux' ? undefined : null;
  return () => {
    if (trim === undefined) trim = loadTrim();
    if (trim === null) return false;
    trim(0);
    return true;
  };
}

function loadTrim(): TrimFn | null {
  try {
    // koffi is CommonJS with a native part: required where it lies, not bundled.
    const koffi = createRequire(import.meta.url)('koffi') as {
      load(name: string): { func(signature: string): TrimFn };
    };
    return koffi.load('libc.so.6').func('int malloc_trim(size_t pad)');
  } catch {
    // No glibc (musl has no libc.so.6 and no malloc_trim), or no prebuilt koffi for this
    // machine: the pages stay with the allocator, as they would without this.
    return null;
  }
}
