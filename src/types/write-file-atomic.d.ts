// write-file-atomic ships no types and @types/write-file-atomic is not installed: the one
// signature Cogito uses. A plain import (not createRequire) lets the bundle inline it.
declare module 'write-file-atomic' {
  function writeFileAtomic(
    file: string,
    data: string,
    options: { mode?: number; encoding?: BufferEncoding; fsync?: boolean },
  ): Promise<void>;
  export default writeFileAtomic;
}
