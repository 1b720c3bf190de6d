/**
 * Jupyter notebooks: one unit per cell. Markdown cells are their Markdown, code cells are
 * fenced in the notebook's language, and outputs follow trimmed (a cell that printed 10,000
 * lines shows its first lines and says how many more), images named with their size and never
 * inlined (a plot is base64 PNG: megabytes the model cannot use).
 */
import { htmlToMarkdown } from './markup.js';
import { formatSize } from './inflate.js';
import type { DocumentUnit, ExtractInput, ExtractedDocument } from './types.js';
import { DocumentError } from './types.js';
import { unitWindow } from './unitWindow.js';

/** Most lines and characters of one output shown. */
const OUTPUT_LINES = 30;
const OUTPUT_CHARS = 3000;

type Source = string | string[] | undefined;

interface Output {
  output_type?: string;
  name?: string;
  text?: Source;
  data?: Record<string, Source>;
  ename?: string;
  evalue?: string;
  traceback?: string[];
}

interface Cell {
  cell_type?: string;
  source?: Source;
  outputs?: Output[];
  execution_count?: number | null;
}

interface Notebook {
  cells?: Cell[];
  worksheets?: { cells?: Cell[] }[];
  nbformat?: number;
  metadata?: {
    kernelspec?: { display_name?: string; language?: string; name?: string };
    language_info?: { name?: string; version?: string };
  };
}

export async function extract(input: ExtractInput): Promise<ExtractedDocument> {
  const notebook = parse(input);
  const cells = notebook.cells ?? notebook.worksheets?.[0]?.cells;
  if (!Array.isArray(cells)) {
    throw new DocumentError(
      'malformed',
      `"${input.name}" is JSON but not a Jupyter notebook: it has no "cells" list.`,
    );
  }
  const kernel = notebook.metadata?.kernelspec;
  const info = notebook.metadata?.language_info;
  const language = (kernel?.language ?? info?.name ?? 'python').toLowerCase();
  const unitAt = (n: number): DocumentUnit => cellUnit(cells[n - 1] ?? {}, n, language);
  const window = unitWindow(cells.length, unitAt, input, 'cell');
  const count = (type: string): number => cells.filter((c) => c?.cell_type === type).length;
  const meta: [string, string][] = [];
  if (kernel?.display_name) meta.push(['Kernel', kernel.display_name]);
  meta.push(['Language', info?.version ? `${language} ${info.version}` : language]);
  meta.push(['Cells', `${count('code')} code, ${count('markdown')} markdown`]);
  return {
    kind: 'ipynb',
    label: 'Jupyter notebook',
    meta,
    unitName: 'cell',
    unitCount: cells.length,
    units: window.units,
    notes: window.notes,
  };
}

function parse(input: ExtractInput): Notebook {
  let value: unknown;
  try {
    value = JSON.parse(new TextDecoder().decode(input.bytes));
  } catch (e) {
    const reason = e instanceof Error ? e.message : String(e);
    throw new DocumentError(
      'malformed',
      `"${input.name}" is not a Jupyter notebook: it is not valid JSON (${reason}).`,
    );
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new DocumentError(
      'malformed',
      `"${input.name}" is JSON but not a Jupyter notebook: it is not an object.`,
    );
  }
  return value as Notebook;
}

function cellUnit(cell: Cell, n: number, language: string): DocumentUnit {
  const type = cell.cell_type ?? 'unknown';
  const source = joined(cell.source);
  if (type === 'markdown') return { title: `Cell ${n} (markdown)`, markdown: source };
  if (type !== 'code') return { title: `Cell ${n} (${type})`, markdown: fenced(source, '') };
  const parts = [fenced(source, language)];
  for (const output of Array.isArray(cell.outputs) ? cell.outputs : []) {
    const shown = outputText(output);
    if (shown) parts.push(shown);
  }
  const run = typeof cell.execution_count === 'number' ? ` [${cell.execution_count}]` : '';
  return { title: `Cell ${n} (code${run})`, markdown: parts.join('\n\n') };
}

function outputText(output: Output): string {
  if (output.output_type === 'stream') {
    return `Output (${output.name ?? 'stream'}):\n${fenced(trimmed(joined(output.text)), '')}`;
  }
  if (output.output_type === 'error') {
    // eslint-disable-next-line no-control-regex
    const traceback = (output.traceback ?? []).join('\n').replace(/\u001b\[[0-9;]*m/g, '');
    return `Error: ${output.ename ?? 'error'}: ${output.evalue ?? ''}\n${fenced(trimmed(traceback), '')}`;
  }
  const data = output.data ?? {};
  const images = Object.keys(data)
    .filter((type) => type.startsWith('image/'))
    .map((type) => `[image: ${type} output, ${formatSize(imageBytes(joined(data[type])))}]`);
  const markdown = data['text/markdown'];
  const html = data['text/html'];
  const plain = data['text/plain'];
  let text = '';
  if (markdown !== undefined) text = trimmed(joined(markdown));
  else if (plain !== undefined && images.length === 0) text = fenced(trimmed(joined(plain)), '');
  else if (html !== undefined && images.length === 0) text = trimmed(htmlToMarkdown(joined(html)));
  return [text ? `Output:\n${text}` : '', ...images].filter(Boolean).join('\n');
}

/** The first lines of an output, with how much was left out. */
function trimmed(text: string): string {
  const lines = text.replace(/\n$/, '').split('\n');
  let kept = lines.slice(0, OUTPUT_LINES).join('\n');
  if (kept.length > OUTPUT_CHARS) kept = kept.slice(0, OUTPUT_CHARS);
  const hidden = lines.length - kept.split('\n').length;
  if (hidden > 0) return `${kept}\n… ${hidden} more lines not shown`;
  return kept.length < text.replace(/\n$/, '').length ? `${kept}… (output trimmed)` : kept;
}

/** A code block whose fence is longer than any run of backticks inside it. */
function fenced(code: string, language: string): string {
  const longest = Math.max(2, ...(code.match(/`+/g) ?? []).map((run) => run.length));
  const fence = '`'.repeat(longest + 1);
  return `${fence}${language}\n${code.replace(/\n$/, '')}\n${fence}`;
}

function joined(source: Source): string {
  if (Array.isArray(source)) return source.join('');
  return typeof source === 'string' ? source : '';
}

/** Decoded size of base64 image data (SVG is text, counted as is). */
function imageBytes(data: string): number {
  const clean = data.replace(/\s/g, '');
  return /^[A-Za-z0-9+/]*=*$/.test(clean) ? Math.floor((clean.length * 3) / 4) : data.length;
}
