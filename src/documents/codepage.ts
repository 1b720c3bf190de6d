/**
 * Text in a Windows code page, as RTF (`\ansicpg`) and OLE property sets name them by
 * number. Windows-1252 goes through encoding.ts, because Node 20's decoder reads it as
 * Latin-1 (its curly quotes and euro sign would come out as control characters).
 */
import { windows1252 } from './encoding.js';

const NAMES: Readonly<Record<number, string>> = {
  932: 'shift_jis',
  936: 'gbk',
  949: 'euc-kr',
  950: 'big5',
  1200: 'utf-16le',
  65001: 'utf-8',
};

/** Decodes the bytes in the code page; an unknown code page is read as Windows-1252. */
export function decodeCodepage(bytes: Uint8Array, codepage: number): string {
  if (codepage !== 1252) {
    try {
      return new TextDecoder(NAMES[codepage] ?? `windows-${codepage}`).decode(bytes);
    } catch {
      // Not a code page Node knows: fall through.
    }
  }
  return windows1252(bytes);
}
