/**
 * A DrawingML chart part (`c:chartSpace`) as Markdown: its title, its kind, and the values
 * the file caches for each series, as a table with one row per category. The cache is what
 * PowerPoint and LibreOffice drew, so no linked workbook is needed.
 */
import { markdownTable } from './markdownTable.js';
import type { XmlElement } from './xmlTree.js';
import { descendants, kid, kids, local, textOf } from './xmlTree.js';

export function chartMarkdown(root: XmlElement): string {
  const chart = kid(root, 'c:chart');
  if (!chart) return '';
  const title = titleOf(kid(chart, 'c:title'));
  const plot = kid(chart, 'c:plotArea');
  const kinds = plot ? kids(plot).filter((el) => local(el).endsWith('Chart')) : [];
  const kind = kinds.map((el) =>
    local(el)
      .replace(/Chart$/, '')
      .replace(/3D$/, ' 3-D'),
  )[0];
  const series = kinds.flatMap((el) => kids(el, 'c:ser'));
  const head = `Chart${title ? `: ${title}` : ''}${kind ? ` (${kind} chart)` : ''}`;
  if (series.length === 0) return head;
  const columns = series.map((ser, i) => ({
    name: cached(kid(ser, 'c:tx'))[0] ?? `Series ${i + 1}`,
    categories: cached(kid(ser, 'c:cat') ?? kid(ser, 'c:xVal')),
    values: cached(kid(ser, 'c:val') ?? kid(ser, 'c:yVal')),
  }));
  const categories = columns.find((c) => c.categories.length > 0)?.categories ?? [];
  const count = Math.max(categories.length, ...columns.map((c) => c.values.length));
  const rows = [['Category', ...columns.map((c) => c.name)]];
  for (let i = 0; i < count; i++) {
    rows.push([categories[i] ?? String(i + 1), ...columns.map((c) => c.values[i] ?? '')]);
  }
  return `${head}\n\n${markdownTable(rows)}`;
}

function titleOf(title: XmlElement | undefined): string {
  if (!title) return '';
  const rich = descendants(title, 'a:p')
    .map((p) => descendants(p, 'a:t').map(textOf).join(''))
    .filter(Boolean)
    .join(' ');
  return rich || (cached(kid(title, 'c:tx'))[0] ?? '');
}

/** The cached points under a reference (`c:strCache`, `c:numCache`), by their index. */
function cached(el: XmlElement | undefined): string[] {
  if (!el) return [];
  const values: string[] = [];
  for (const pt of descendants(el, 'c:pt')) {
    const v = kid(pt, 'c:v');
    if (v) values[Number(pt.attrs['idx'] ?? values.length)] = textOf(v);
  }
  if (values.length === 0) {
    const v = descendants(el, 'c:v')[0];
    if (v) values.push(textOf(v));
  }
  return Array.from(values, (v) => v ?? '');
}
