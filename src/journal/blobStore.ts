/**
 * The backup store: old file contents kept content-addressed (`<dir>/<2 hex>/<sha256>`), so
 * a file edited a thousand times back and forth costs one copy per distinct content. It
 * lives under the app home's data folder, never in the workspace.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import fsp, { type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';

/** Content-addressed blobs in one folder, with their sizes known for the size cap. */
export class BlobStore {
  private readonly sizes = new Map<string, number>();
  private total = 0;

  private constructor(readonly dir: string) {}

  /** Opens (and creates) the store in `dir`, counting what is already there. */
  static open(dir: string): BlobStore {
    const store = new BlobStore(dir);
    fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
    for (const sub of fs.readdirSync(dir)) {
      const subDir = path.join(dir, sub);
      if (!/^[0-9a-f]{2}$/.test(sub)) continue;
      for (const name of fs.readdirSync(subDir)) {
        if (!/^[0-9a-f]{64}$/.test(name)) continue;
        const size = fs.statSync(path.join(subDir, name)).size;
        store.sizes.set(name, size);
        store.total += size;
      }
    }
    return store;
  }

  /** Bytes held in the store. */
  get bytes(): number {
    return this.total;
  }

  /** Where the blob with `hash` is (or would be) kept. */
  pathOf(hash: string): string {
    return path.join(this.dir, hash.slice(0, 2), hash);
  }

  /** Every blob kept. */
  hashes(): string[] {
    return [...this.sizes.keys()];
  }

  /** Bytes of the blob `hash` (0 when it is not kept). */
  sizeOf(hash: string): number {
    return this.sizes.get(hash) ?? 0;
  }

  has(hash: string): boolean {
    return this.sizes.has(hash);
  }

  /**
   * Keeps `data` (whose content hash is `hash`). Written to a temporary name and renamed, so
   * a crash never leaves a half blob behind.
   */
  async putBytes(hash: string, data: Uint8Array): Promise<void> {
    if (this.sizes.has(hash)) return;
    await this.land(hash, data.byteLength, (tmp) => fsp.writeFile(tmp, data, { mode: 0o600 }));
  }

  /**
   * Keeps the `size` bytes read from `handle` (an open file whose content hash is `hash`).
   * Fails with `ECHANGED` when a different number of bytes came out (the file changed while
   * it was being backed up): then nothing is kept.
   */
  async putFromHandle(hash: string, handle: FileHandle, size: number): Promise<void> {
    if (this.sizes.has(hash)) return;
    await this.land(hash, size, async (tmp) => {
      const from = handle.createReadStream({ start: 0, autoClose: false });
      await pipeline(from, fs.createWriteStream(tmp, { mode: 0o600 }));
      if ((await fsp.stat(tmp)).size !== size) {
        throw Object.assign(new Error('it changed while it was being backed up'), {
          code: 'ECHANGED',
        });
      }
    });
  }

  private async land(hash: string, size: number, fill: (tmp: string) => Promise<void>) {
    const dest = this.pathOf(hash);
    await fsp.mkdir(path.dirname(dest), { recursive: true, mode: 0o700 });
    const tmp = `${dest}.${randomBytes(4).toString('hex')}.tmp`;
    try {
      await fill(tmp);
      await fsp.rename(tmp, dest);
    } catch (e) {
      await fsp.rm(tmp, { force: true });
      throw e;
    }
    this.sizes.set(hash, size);
    this.total += size;
  }

  /** Removes a blob (the size cap evicting the oldest backups). */
  async remove(hash: string): Promise<void> {
    const size = this.sizes.get(hash);
    if (size === undefined) return;
    await fsp.rm(this.pathOf(hash), { force: true });
    this.sizes.delete(hash);
    this.total -= size;
  }
}
