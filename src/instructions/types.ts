/** The shapes of loaded instruction files, shared by the set, its framing and /context. */
import type { ImportedFile, RefusedImport } from './imports.js';

/** Where a file was found: the user's own (home), a start folder, or a subfolder a tool touched. */
export type InstructionOrigin = 'user' | 'workspace' | 'folder';

/** One instruction file as loaded. */
export interface InstructionFile {
  /** Its real path. */
  abs: string;
  /** As shown: workspace-relative, `../…` above it, `~/…` for the user's own. */
  shown: string;
  origin: InstructionOrigin;
  /** Its size with its imports, before any cut. */
  bytes: number;
  /** What the budget let through (0: not loaded at all). */
  kept: number;
  imported: ImportedFile[];
  refused: RefusedImport[];
  /** The text applied (cut to `kept`). */
  text: string;
  /** Changed by Cogito this session and not seen by the user: the text is the earlier one. */
  unseenChange?: boolean;
}

/** What /context shows. */
export interface InstructionReport {
  start: readonly InstructionFile[];
  nested: readonly InstructionFile[];
  maxBytes: number;
  /** The names looked for in each folder (config `instructions.files`). */
  names: readonly string[];
  /** The workspace's root. */
  root: string;
}
