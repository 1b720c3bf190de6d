/**
 * PowerPoint presentations (.pptx): one unit per slide, in the order `presentation.xml`
 * lists them, headed by the slide's title; its text boxes with their bullets, its tables as
 * Markdown tables, its charts (title and cached values), its pictures by name, then its
 * speaker notes. Only the slides asked for are inflated and parsed.
 */
import { markdownTable } from './markdownTable.js';
import { chartMarkdown } from './ooxmlChart.js';
import type { Relationship } from './ooxmlRels.js';
import { relsOf } from './ooxmlRels.js';
import { packageMeta } from './officeMeta.js';
import type { NumberedUnit } from './unitWindow.js';
import { capUnits, unitRange } from './unitWindow.js';
import type { ExtractInput, ExtractedDocument } from './types.js';
import type { XmlElement } from './xmlTree.js';
import { descendants, kid, kids, parseXml, textOf } from './xmlTree.js';
import type { ZipParts } from './zipParts.js';
import { openPackage } from './zipParts.js';

export async function extract(input: ExtractInput): Promise<ExtractedDocument> {
  const parts = openPackage(input, 'PowerPoint presentation');
  const presentation = parts.requiredText('ppt/presentation.xml');
  const rels = relsOf(parts, 'ppt/presentation.xml', input.name);
  const slides = descendants(parseXml(presentation, 'ppt/presentation.xml', input.name), 'p:sldId')
    .map((s) => rels.get(s.attrs['r:id'] ?? '')?.target)
    .filter((target): target is string => target !== undefined && parts.has(target));
  const range = unitRange(input, slides.length, 'slide');
  const units: NumberedUnit[] = [];
  for (let n = range.from; n <= range.to; n++) {
    units.push({ number: n, ...slideUnit(parts, slides[n - 1] ?? '', n, input.name) });
  }
  const capped = capUnits(units, input, 'slide', range.to);
  return {
    kind: 'pptx',
    label: 'PowerPoint presentation',
    meta: [...packageMeta(parts, input.name), ['Slides', String(slides.length)]],
    unitName: 'slide',
    unitCount: slides.length,
    units: capped.units,
    notes: [...range.notes, ...capped.notes],
  };
}

function slideUnit(
  parts: ZipParts,
  part: string,
  n: number,
  name: string,
): { title: string; markdown: string } {
  const root = parseXml(parts.text(part) ?? '', part, name);
  const rels = relsOf(parts, part, name);
  const tree = descendants(root, 'p:spTree')[0];
  const found: Found = { title: '', blocks: [] };
  if (tree) shapes(tree, { parts, rels, name }, found);
  const notesPart = [...rels.values()].find((r) => r.type === 'notesSlide')?.target;
  const notes = notesPart && parts.has(notesPart) ? notesText(parts, notesPart, name) : '';
  if (notes) found.blocks.push(`**Notes:**\n\n${notes}`);
  return {
    title: found.title ? `Slide ${n}: ${found.title}` : `Slide ${n}`,
    markdown: found.blocks.join('\n\n'),
  };
}

interface Found {
  title: string;
  readonly blocks: string[];
}

interface SlideContext {
  readonly parts: ZipParts;
  readonly rels: Map<string, Relationship>;
  readonly name: string;
}

/** Walks a shape tree in order: text shapes, groups, tables, charts, pictures. */
function shapes(tree: XmlElement, ctx: SlideContext, found: Found): void {
  for (const shape of kids(tree)) {
    switch (shape.name) {
      case 'p:sp': {
        const type = descendants(shape, 'p:ph')[0]?.attrs['type'];
        const isPlaceholder = descendants(shape, 'p:ph').length > 0;
        const body = kid(shape, 'p:txBody');
        if (!body) break;
        if ((type === 'title' || type === 'ctrTitle') && !found.title) {
          found.title = paragraphs(body, false).replace(/\s+/g, ' ').trim();
        } else if (type !== 'sldNum' && type !== 'dt' && type !== 'ftr') {
          const bulleted =
            isPlaceholder && (type === undefined || type === 'body' || type === 'obj');
          const text = paragraphs(body, bulleted);
          if (text.trim()) found.blocks.push(text);
        }
        break;
      }
      case 'p:grpSp':
        shapes(shape, ctx, found);
        break;
      case 'mc:AlternateContent':
        for (const choice of kids(shape, 'mc:Choice').slice(0, 1)) shapes(choice, ctx, found);
        break;
      case 'p:graphicFrame':
        graphic(shape, ctx, found);
        break;
      case 'p:pic': {
        const props = descendants(shape, 'p:cNvPr')[0];
        const label = props?.attrs['descr']?.trim() || props?.attrs['name'] || 'unnamed';
        found.blocks.push(`[image: ${label}]`);
        break;
      }
    }
  }
}

function graphic(frame: XmlElement, ctx: SlideContext, found: Found): void {
  const table = descendants(frame, 'a:tbl')[0];
  if (table) {
    const rows = kids(table, 'a:tr').map((tr) =>
      kids(tr, 'a:tc').map((tc) => {
        const body = kid(tc, 'a:txBody');
        return body ? paragraphs(body, false) : '';
      }),
    );
    found.blocks.push(markdownTable(rows));
    return;
  }
  const chartRef = descendants(frame, 'c:chart')[0]?.attrs['r:id'];
  const chartPart = chartRef ? ctx.rels.get(chartRef)?.target : undefined;
  const xml = chartPart ? ctx.parts.text(chartPart) : undefined;
  if (chartPart && xml !== undefined) {
    const chart = chartMarkdown(parseXml(xml, chartPart, ctx.name));
    if (chart) found.blocks.push(chart);
    return;
  }
  const name = descendants(frame, 'p:cNvPr')[0]?.attrs['name'];
  if (name) found.blocks.push(`[object: ${name}]`);
}

/** A text body's paragraphs; in a body placeholder, or with an explicit bullet, as list items. */
function paragraphs(body: XmlElement, bulleted: boolean): string {
  const lines: string[] = [];
  const counters: number[] = [];
  for (const p of kids(body, 'a:p')) {
    const text = kids(p)
      .map((run) =>
        run.name === 'a:r' || run.name === 'a:fld'
          ? descendants(run, 'a:t').map(textOf).join('')
          : run.name === 'a:br'
            ? '\n'
            : '',
      )
      .join('')
      .trim();
    if (!text) continue;
    const props = kid(p, 'a:pPr');
    const level = Math.min(8, Number(props?.attrs['lvl'] ?? 0));
    const numbered = props !== undefined && kid(props, 'a:buAutoNum') !== undefined;
    const bullet =
      numbered ||
      (props !== undefined && kid(props, 'a:buChar') !== undefined) ||
      (bulleted && !(props && kid(props, 'a:buNone')));
    counters.length = level + 1;
    counters[level] = (counters[level] ?? 0) + 1;
    const indent = '   '.repeat(level);
    const marker = numbered ? `${counters[level]}.` : '-';
    lines.push(bullet ? `${indent}${marker} ${text.replace(/\n/g, ' ')}` : text);
  }
  return lines.join('\n');
}

const NOT_NOTES = new Set(['sldImg', 'sldNum', 'hdr', 'ftr', 'dt']);

/** The speaker notes: the notes page's text (not its slide image, number, header or date). */
function notesText(parts: ZipParts, part: string, name: string): string {
  const root = parseXml(parts.text(part) ?? '', part, name);
  return descendants(root, 'p:sp')
    .filter((sp) => !NOT_NOTES.has(descendants(sp, 'p:ph')[0]?.attrs['type'] ?? ''))
    .map((sp) => {
      const body = kid(sp, 'p:txBody');
      return body ? paragraphs(body, false) : '';
    })
    .filter(Boolean)
    .join('\n\n');
}
