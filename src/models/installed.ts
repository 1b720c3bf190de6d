/** The models already downloaded into `<app home>/models/`, for `/model` and the wizard. */
import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';

interface InstalledModel {
  file: string;
  path: string;
  bytes: number;
}

/** Finished `.gguf` files, by name; `.part` downloads are not listed. A missing folder is empty. */
export async function listInstalledModels(dir: string): Promise<InstalledModel[]> {
  let names: string[];
  try {
    names = await readdir(dir);
  } catch {
    return [];
  }
  const found: InstalledModel[] = [];
  for (const file of names.filter((n) => n.toLowerCase().endsWith('.gguf')).sort()) {
    const full = path.join(dir, file);
    try {
      const s = await stat(full);
      if (s.isFile()) found.push({ file, path: full, bytes: s.size });
    } catch {
      // Removed while listing: not installed.
    }
  }
  return found;
}

/** The installed model `name` names: its file name, with or without `.gguf`, any case. */
export function findInstalled(
  models: readonly InstalledModel[],
  name: string,
): InstalledModel | undefined {
  const want = name.trim().toLowerCase();
  return models.find((m) => {
    const file = m.file.toLowerCase();
    return file === want || file === `${want}.gguf`;
  });
}
