/**
 * The file tools, built together. Register them by passing the array to `ToolRegistry`;
 * nothing is registered as a side effect of importing this module.
 */
import type { Tool } from '../types.js';
import type { FileToolDeps } from './deps.js';
import { createLsTool } from './ls.js';
import { createReadTool } from './read.js';
import { createCreateTool } from './create.js';
import { createEditTool } from './edit.js';
import { createCopyTool } from './copy.js';
import { createMoveTool } from './move.js';
import { createMkdirTool } from './mkdir.js';
import { createDeleteTool } from './delete.js';
import { createFindTool } from './find.js';
import { createGrepTool } from './grep.js';

import { DocumentCache } from '../../documents/cache.js';
import { DocumentReader } from '../../documents/reader.js';

export type { FileToolDeps, FileSystem } from './deps.js';
export { DocumentReader };

/** The reader of documents for a session: extracted text cached in `cacheDir` (in the home). */
export function createDocumentReader(cacheDir: string): DocumentReader {
  return new DocumentReader({ cache: new DocumentCache(cacheDir) });
}
export { TRASH_DIR } from './common.js';
export { createCreateTool, createFindTool, createGrepTool };

/** All ten file tools, sharing the same injected effects, in prompt order. */
export function createFileTools(deps?: FileToolDeps): Tool[] {
  return [
    createLsTool(deps),
    createReadTool(deps),
    createFindTool(deps),
    createGrepTool(deps),
    createCreateTool(deps),
    createEditTool(deps),
    createMkdirTool(deps),
    createCopyTool(deps),
    createMoveTool(deps),
    createDeleteTool(deps),
  ];
}
