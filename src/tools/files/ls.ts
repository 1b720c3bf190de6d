/** `ls(path?)`: what a folder holds, folders first, with size and modification time. */
import path from 'node:path';
import type { Tool, ToolContext, ToolResult, ToolArg } from '../types.js';
import { ok } from '../types.js';
import type { FileToolDeps } from './deps.js';
import { resolveDeps } from './deps.js';
import { abortedResult, formatSize, fsFailure, resolvePath, strArg } from './common.js';
import { counted } from '../../core/plural.js';
import { documentSummary } from './documentView.js';

/** At most this many entries are listed; the rest are counted. */
const LS_MAX_ENTRIES = 200;

type EntryKind = 'dir' | 'file' | 'link';

interface Entry {
  name: string;
  kind: EntryKind;
  size: number;
  modified: Date;
  target?: string;
  /** A document's kind and pages: `PDF, 12 pages`. */
  document?: string;
}

/** Creates the `ls` tool. */
export function createLsTool(deps?: FileToolDeps): Tool {
  const { fs, documents } = resolveDeps(deps);

  async function describe(abs: string, name: string): Promise<Entry> {
    const st = await fs.lstat(abs);
    const kind: EntryKind = st.isSymbolicLink() ? 'link' : st.isDirectory() ? 'dir' : 'file';
    const entry: Entry = { name, kind, size: st.size, modified: st.mtime };
    if (kind === 'link') entry.target = await fs.readlink(abs).catch(() => '?');
    if (kind === 'file') {
      const file = { abs, rel: name, size: st.size, mtimeMs: st.mtimeMs };
      const document = await documentSummary(documents, file);
      if (document !== undefined) entry.document = document;
    }
    return entry;
  }

  return {
    name: 'ls',
    description:
      'List a folder: kind (dir/file/link), size, modified time, and for a document its kind and pages (when it was read before); folders first. Defaults to the workspace root.',
    kind: 'read',
    params: [{ name: 'path', type: 'string', optional: true, description: 'folder to list' }],
    async run(args: readonly ToolArg[], ctx: ToolContext): Promise<ToolResult> {
      const input = strArg(args, 0, '.') || '.';
      const r = await resolvePath(ctx, input, { mustExist: true });
      if (!r.ok) return r.result;
      const { abs, rel } = r.path;
      try {
        const st = await fs.stat(abs);
        if (!st.isDirectory()) {
          const one = await describe(abs, rel);
          return ok(formatEntry(one), `ls ${rel}: a file`);
        }
        const names = await fs.readdir(abs);
        const entries: Entry[] = [];
        for (const name of names) {
          if (ctx.signal.aborted) return abortedResult('ls');
          entries.push(await describe(path.join(abs, name), name).catch(() => gone(name)));
        }
        entries.sort(byKindThenName);
        const n = entries.length;
        return ok(render(rel, entries), `ls ${rel}: ${n} ${n === 1 ? 'entry' : 'entries'}`);
      } catch (e) {
        return fsFailure(e, rel, 'list');
      }
    },
  };
}

/** An entry removed between readdir and lstat: still listed, so counts stay honest. */
function gone(name: string): Entry {
  return { name, kind: 'file', size: 0, modified: new Date(0) };
}

function byKindThenName(a: Entry, b: Entry): number {
  const rank = (e: Entry): number => (e.kind === 'dir' ? 0 : 1);
  const d = rank(a) - rank(b);
  if (d !== 0) return d;
  return a.name < b.name ? -1 : a.name > b.name ? 1 : 0;
}

function render(rel: string, entries: readonly Entry[]): string {
  if (entries.length === 0) return `${rel}/ is empty.`;
  const shown = entries.slice(0, LS_MAX_ENTRIES);
  const lines = [
    `${rel}/ (${counted(entries.length, 'entry', 'entries')})`,
    ...shown.map(formatEntry),
  ];
  const more = entries.length - shown.length;
  if (more > 0) lines.push(`… ${more} more (use find with a pattern to narrow the list)`);
  return lines.join('\n');
}

function formatEntry(e: Entry): string {
  const size = e.kind === 'dir' ? '-' : formatSize(e.size);
  const name = e.kind === 'dir' ? `${e.name}/` : e.name;
  const target = e.target === undefined ? '' : ` -> ${e.target}`;
  const document = e.document === undefined ? '' : `  (${e.document})`;
  return `${e.kind.padEnd(4)}  ${size.padStart(9)}  ${e.modified.toISOString()}  ${name}${target}${document}`;
}
