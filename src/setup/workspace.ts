/** The workspace step's check: the folder must exist, and be a folder. Nothing is created. */
import { stat } from 'node:fs/promises';
import path from 'node:path';
import { expandTilde } from '../config/paths.js';

export type WorkspaceCheck =
  | { ok: true; path: string }
  | { ok: false; problem: 'empty' | 'missing' | 'notFolder'; path: string };

/** Resolves `input` (relative to `cwd`, `~` expanded) and checks it is an existing folder. */
export async function checkWorkspace(input: string, cwd: string): Promise<WorkspaceCheck> {
  const trimmed = input.trim();
  if (trimmed === '') return { ok: false, problem: 'empty', path: '' };
  const abs = path.resolve(cwd, expandTilde(trimmed));
  try {
    const s = await stat(abs);
    return s.isDirectory()
      ? { ok: true, path: abs }
      : { ok: false, problem: 'notFolder', path: abs };
  } catch {
    return { ok: false, problem: 'missing', path: abs };
  }
}
