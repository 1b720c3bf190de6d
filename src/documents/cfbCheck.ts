/**
 * A Compound File (the container of an Outlook .msg) checked before msgreader reads it: every
 * sector chain must stay inside the file and never loop, and no stream may claim more bytes
 * than the file holds. msgreader trusts these structures, so a damaged or hostile file (a
 * chain that cycles, a stream that says it is a gigabyte long) would make it loop or allocate
 * without end; here that becomes a `malformed` error in microseconds. ([MS-CFB] 2.2–2.6.)
 */
import { DocumentError } from './types.js';

const END_OF_CHAIN = 0xfffffffe;
const FREE = 0xffffffff;
const ENTRY_BYTES = 128;

export function checkCompoundFile(bytes: Uint8Array, file: string): void {
  const fail = (what: string): never => {
    throw new DocumentError(
      'malformed',
      `"${file}" is a damaged Outlook message: ${what}; it may be truncated or tampered with.`,
    );
  };
  if (bytes.length < 512) fail('it is shorter than a Compound File header');
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const u32 = (at: number): number => view.getUint32(at, true);
  const shift = view.getUint16(0x1e, true);
  if (shift !== 9 && shift !== 12) fail(`its sector size (2^${shift}) is not 512 or 4096`);
  const size = 1 << shift;
  const sectors = Math.floor((bytes.length - size) / size) + (bytes.length % size ? 1 : 0);
  const offsetOf = (sector: number): number => (sector + 1) * size;

  // The FAT: its sectors are listed in the header (109) and then in a DIFAT chain.
  const fatSectors: number[] = [];
  for (let i = 0; i < 109; i++) fatSectors.push(u32(0x4c + 4 * i));
  let difat = u32(0x44);
  for (let hops = 0; difat !== END_OF_CHAIN && difat !== FREE; hops++) {
    if (difat >= sectors || hops > sectors)
      fail('its sector allocation list runs outside the file');
    for (let i = 0; i < size / 4 - 1; i++) fatSectors.push(u32(offsetOf(difat) + 4 * i));
    difat = u32(offsetOf(difat) + size - 4);
  }
  const fat: number[] = [];
  for (const sector of fatSectors.slice(0, u32(0x2c))) {
    if (sector >= sectors) fail('its allocation table points outside the file');
    for (let i = 0; i < size / 4; i++) fat.push(u32(offsetOf(sector) + 4 * i));
  }

  /** The sectors of a chain; out of range or looping is malformed. */
  const chain = (
    start: number,
    table: readonly number[],
    limit: number,
    what: string,
  ): number[] => {
    const seen = new Set<number>();
    const out: number[] = [];
    for (let s = start; s !== END_OF_CHAIN; s = table[s] ?? FREE) {
      if (s >= limit || s === FREE) fail(`the chain of ${what} runs outside the file`);
      if (seen.has(s)) fail(`the chain of ${what} loops back on itself`);
      seen.add(s);
      out.push(s);
    }
    return out;
  };

  const directory = chain(u32(0x30), fat, sectors, 'its directory');
  const miniFat: number[] = [];
  for (const s of chain(u32(0x3c), fat, sectors, 'its mini allocation table')) {
    for (let i = 0; i < size / 4; i++) miniFat.push(u32(offsetOf(s) + 4 * i));
  }
  const cutoff = u32(0x38);
  let miniSectors = 0;
  for (const s of directory) {
    for (let at = offsetOf(s); at < offsetOf(s) + size; at += ENTRY_BYTES) {
      const type = bytes[at + 66];
      if (type !== 2 && type !== 5) continue;
      const start = u32(at + 116);
      // Version 3 files (512-byte sectors) may leave garbage in the high half: ignored.
      const length = u32(at + 120) + (shift === 12 ? u32(at + 124) * 2 ** 32 : 0);
      if (length > bytes.length)
        fail(`a stream claims ${length} bytes in a file of ${bytes.length}`);
      if (type === 5) {
        miniSectors = chain(start, fat, sectors, 'its mini stream').length * (size / 64);
      } else if (length >= cutoff) {
        if (chain(start, fat, sectors, 'a stream').length * size < length)
          fail('a stream is cut off');
      } else if (
        length > 0 &&
        chain(start, miniFat, miniSectors, 'a small stream').length * 64 < length
      ) {
        fail('a small stream is cut off');
      }
    }
  }
}
