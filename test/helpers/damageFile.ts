/**
 * The four ways the state-file attacks damage a file: cut by 4 bytes, junk bytes after its
 * end, a folder in its place, deleted. Shared by the attack tables so each file is attacked
 * the same way.
 */
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';

export type How = 'cut by 4 bytes' | 'junk bytes' | 'a folder in its place' | 'deleted';
export const HOWS: How[] = ['cut by 4 bytes', 'junk bytes', 'a folder in its place', 'deleted'];

/** Damages `file`; returns what must be found kept aside (bytes, or 'folder'), if anything. */
export async function damage(file: string, how: How): Promise<Buffer | 'folder' | undefined> {
  const body = await readFile(file);
  if (how === 'deleted') {
    await rm(file);
    return undefined;
  }
  if (how === 'a folder in its place') {
    await rm(file);
    await mkdir(file);
    await writeFile(path.join(file, 'inside.txt'), 'keep me');
    return 'folder';
  }
  const bad =
    how === 'cut by 4 bytes'
      ? body.subarray(0, body.length - 4)
      : Buffer.concat([body, Buffer.from([0xff, 0xfe, 0x00, 0x7b, 0x22])]);
  await writeFile(file, bad);
  return bad;
}
