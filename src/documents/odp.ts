/**
 * OpenDocument presentations (.odp): one unit per `draw:page`, headed by its title frame;
 * text frames, tables and grouped shapes through the ODF text walker, embedded charts (an
 * `Object N/content.xml` of the package) as their title and data table, images by name,
 * then the speaker notes.
 */
import { markdownTable } from './markdownTable.js';
import { OdfText, listStylesOf } from './odfText.js';
import { packageMeta } from './officeMeta.js';
import type { NumberedUnit } from './unitWindow.js';
import { capUnits, unitRange } from './unitWindow.js';
import type { ExtractInput, ExtractedDocument } from './types.js';
import { DocumentError } from './types.js';
import type { XmlElement } from './xmlTree.js';
import { descendants, kid, kids, parseXml, textOf } from './xmlTree.js';
import type { ZipParts } from './zipParts.js';
import { openPackage } from './zipParts.js';

/** Frames that repeat on every slide and say nothing of its content. */
const FURNITURE = new Set(['date-time', 'page-number', 'footer', 'header', 'page']);

export async function extract(input: ExtractInput): Promise<ExtractedDocument> {
  const parts = openPackage(input, 'OpenDocument presentation');
  const content = parts.requiredText('content.xml');
  const root = parseXml(content, 'content.xml', input.name);
  const presentation = kid(kid(root, 'office:body'), 'office:presentation');
  if (!presentation) {
    throw new DocumentError(
      'malformed',
      `"${input.name}" has no slides (content.xml has no office:presentation); it may be another kind of OpenDocument file.`,
    );
  }
  const stylesXml = parts.text('styles.xml');
  const styles =
    stylesXml === undefined ? undefined : parseXml(stylesXml, 'styles.xml', input.name);
  const walker = new OdfText(listStylesOf(root, styles));
  const pages = kids(presentation, 'draw:page');
  const range = unitRange(input, pages.length, 'slide');
  const units: NumberedUnit[] = [];
  for (let n = range.from; n <= range.to; n++) {
    const page = pages[n - 1];
    if (page) units.push({ number: n, ...slideUnit(page, n, { parts, walker, name: input.name }) });
  }
  const capped = capUnits(units, input, 'slide', range.to);
  return {
    kind: 'odp',
    label: 'OpenDocument presentation',
    meta: [...packageMeta(parts, input.name), ['Slides', String(pages.length)]],
    unitName: 'slide',
    unitCount: pages.length,
    units: capped.units,
    notes: [...range.notes, ...capped.notes],
  };
}

interface PageContext {
  readonly parts: ZipParts;
  readonly walker: OdfText;
  readonly name: string;
}

function slideUnit(
  page: XmlElement,
  n: number,
  ctx: PageContext,
): { title: string; markdown: string } {
  const found = { title: '', blocks: [] as string[] };
  shapes(page, ctx, found);
  const notes = kid(page, 'presentation:notes');
  const noteText = notes
    ? kids(notes, 'draw:frame')
        .filter((f) => !FURNITURE.has(f.attrs['presentation:class'] ?? ''))
        .flatMap((f) => ctx.walker.frame(f))
        .join('\n\n')
    : '';
  if (noteText) found.blocks.push(`**Notes:**\n\n${noteText}`);
  return {
    title: found.title ? `Slide ${n}: ${found.title}` : `Slide ${n}`,
    markdown: found.blocks.join('\n\n'),
  };
}

function shapes(
  container: XmlElement,
  ctx: PageContext,
  found: { title: string; blocks: string[] },
): void {
  for (const shape of kids(container)) {
    const cls = shape.attrs['presentation:class'] ?? '';
    if (FURNITURE.has(cls) || shape.name === 'presentation:notes') continue;
    if (shape.name === 'draw:g') {
      shapes(shape, ctx, found);
    } else if (shape.name === 'draw:frame') {
      if (cls === 'title' && !found.title) {
        found.title = ctx.walker.frame(shape).join(' ').replace(/\s+/g, ' ').trim();
        continue;
      }
      const object = kid(shape, 'draw:object');
      const table = kid(shape, 'table:table');
      if (object) found.blocks.push(embedded(object, shape, ctx));
      else if (table) found.blocks.push(markdownTable(ctx.walker.tableRows(table)));
      else found.blocks.push(...ctx.walker.frame(shape));
    } else if (kids(shape, 'text:p').length > 0 || kids(shape, 'text:list').length > 0) {
      // Custom shapes, rectangles and ellipses carry their text directly.
      found.blocks.push(...ctx.walker.blocks(shape));
    }
  }
}

/** An embedded object: a chart's title and data, or the object's name. */
function embedded(object: XmlElement, frame: XmlElement, ctx: PageContext): string {
  const href = (object.attrs['xlink:href'] ?? '').replace(/^\.\//, '').replace(/\/$/, '');
  const part = `${href}/content.xml`;
  const xml = href ? ctx.parts.text(part) : undefined;
  const chart =
    xml === undefined ? undefined : descendants(parseXml(xml, part, ctx.name), 'chart:chart')[0];
  if (!chart) return `[object: ${frame.attrs['draw:name'] ?? (href || 'embedded')}]`;
  const title = kid(chart, 'chart:title');
  const kind = (chart.attrs['chart:class'] ?? '').replace(/^chart:/, '');
  const head = `Chart${title ? `: ${textOf(title).trim()}` : ''}${kind ? ` (${kind} chart)` : ''}`;
  const data = kid(chart, 'table:table');
  if (!data) return head;
  const rows = ctx.walker.tableRows(data);
  if (rows[0] && rows[0][0] === '') rows[0][0] = 'Category';
  return `${head}\n\n${markdownTable(rows)}`;
}
