/**
 * OpenDocument text (the body of an .odt, the text boxes and notes of an .odp) as Markdown:
 * `text:h` headings at their outline level, lists bulleted or numbered as their list style
 * says, tables as Markdown tables, images named by their title or frame name, footnotes
 * gathered at the end.
 */
import { markdownTable } from './markdownTable.js';
import type { XmlElement } from './xmlTree.js';
import { descendants, kids, textOf } from './xmlTree.js';

/** Whether each list style numbers its levels, by style name (level 1 first). */
export type ListStyles = ReadonlyMap<string, readonly boolean[]>;

/** The list styles declared under the given roots (content.xml's automatic styles, styles.xml). */
export function listStylesOf(...roots: Array<XmlElement | undefined>): ListStyles {
  const styles = new Map<string, boolean[]>();
  for (const root of roots) {
    if (!root) continue;
    for (const style of descendants(root, 'text:list-style')) {
      const name = style.attrs['style:name'];
      if (!name) continue;
      const levels: boolean[] = [];
      for (const level of kids(style)) {
        const n = Number(level.attrs['text:level'] ?? 0);
        if (n > 0) levels[n - 1] = level.name === 'text:list-level-style-number';
      }
      styles.set(name, levels);
    }
  }
  return styles;
}

/** Walks ODF text into Markdown blocks; footnotes collected on the way come out with them. */
export class OdfText {
  private readonly footnotes: string[] = [];

  constructor(private readonly lists: ListStyles) {}

  /** The Markdown of an element's block content, footnotes appended. */
  markdown(el: XmlElement): string {
    const body = this.blocks(el).join('\n\n');
    const notes = this.footnotes.map((note, i) => `[^${i + 1}]: ${note}`);
    this.footnotes.length = 0;
    return [body, ...notes].filter(Boolean).join('\n\n');
  }

  /** Block-level content of an element, one string per paragraph, heading, list or table. */
  blocks(el: XmlElement): string[] {
    const out: string[] = [];
    for (const child of kids(el)) {
      switch (child.name) {
        case 'text:h': {
          const level = Math.min(6, Math.max(1, Number(child.attrs['text:outline-level'] ?? 1)));
          const text = this.inline(child).trim();
          if (text) out.push(`${'#'.repeat(level)} ${text}`);
          break;
        }
        case 'text:p': {
          const text = this.inline(child).trim();
          if (text) out.push(text);
          out.push(...this.framesIn(child));
          break;
        }
        case 'text:list':
          out.push(this.list(child, 0, undefined));
          break;
        case 'table:table':
          out.push(markdownTable(this.tableRows(child)));
          break;
        case 'draw:frame':
          out.push(...this.frame(child));
          break;
        case 'office:forms':
        case 'text:sequence-decls':
        case 'text:variable-decls':
        case 'text:tracked-changes':
        case 'office:annotation':
        case 'presentation:notes':
          break;
        default:
          out.push(...this.blocks(child));
      }
    }
    return out.filter((block) => block.trim());
  }

  /** A list's items as `-`/`1.` lines, nested ones indented. */
  list(el: XmlElement, depth: number, inherited: string | undefined): string {
    const style = el.attrs['text:style-name'] ?? inherited;
    const numbered = (style && this.lists.get(style)?.[depth]) ?? false;
    const indent = '   '.repeat(depth);
    const lines: string[] = [];
    let n = Number(el.attrs['text:start-value'] ?? 1);
    for (const item of kids(el)) {
      if (item.name !== 'text:list-item' && item.name !== 'text:list-header') continue;
      const marker = numbered ? `${n++}.` : '-';
      let first = true;
      for (const part of kids(item)) {
        if (part.name === 'text:list') {
          lines.push(this.list(part, depth + 1, style));
          continue;
        }
        const text = this.blocks({ ...item, children: [part] }).join(' ');
        if (!text) continue;
        lines.push(first ? `${indent}${marker} ${text}` : `${indent}   ${text}`);
        first = false;
      }
    }
    return lines.join('\n');
  }

  /** A table's cells as text, row by row (repeated rows and cells written out, within reason). */
  tableRows(table: XmlElement): string[][] {
    const rows: string[][] = [];
    for (const row of rowsOf(table)) {
      const cells: string[] = [];
      for (const cell of kids(row)) {
        if (cell.name !== 'table:table-cell' && cell.name !== 'table:covered-table-cell') continue;
        const text = this.blocks(cell).join('\n');
        const repeat = Math.min(Number(cell.attrs['table:number-columns-repeated'] ?? 1), 64);
        for (let i = 0; i < repeat; i++) cells.push(text);
      }
      while (cells.length > 0 && cells[cells.length - 1] === '') cells.pop();
      rows.push(cells);
    }
    while (rows.length > 0 && (rows[rows.length - 1]?.length ?? 0) === 0) rows.pop();
    return rows;
  }

  /** An image's name, or a text box's content. */
  frame(frame: XmlElement): string[] {
    const out: string[] = [];
    for (const child of kids(frame)) {
      if (child.name === 'draw:text-box') out.push(...this.blocks(child));
      else if (child.name === 'draw:image' && !kids(frame, 'draw:text-box').length) {
        const title =
          kids(frame, 'svg:title').map(textOf)[0] ?? kids(frame, 'svg:desc').map(textOf)[0];
        const name = title?.trim() || frame.attrs['draw:name'] || 'unnamed';
        out.push(`[image: ${name}]`);
        break;
      }
    }
    return out;
  }

  /** Frames anchored inside a paragraph (images, text boxes), as blocks after it. */
  private framesIn(p: XmlElement): string[] {
    return kids(p).flatMap((child) =>
      child.name === 'draw:frame'
        ? this.frame(child)
        : child.name === 'text:span' || child.name === 'draw:a'
          ? this.framesIn(child)
          : [],
    );
  }

  /** A paragraph's text: spans, links, spaces, tabs, breaks and footnote marks. */
  inline(el: XmlElement): string {
    let out = '';
    for (const node of el.children) {
      if (typeof node === 'string') {
        out += node.replace(/\s+/g, ' ');
        continue;
      }
      switch (node.name) {
        case 'text:s':
          out += ' '.repeat(Math.min(Number(node.attrs['text:c'] ?? 1), 80));
          break;
        case 'text:tab':
          out += '\t';
          break;
        case 'text:line-break':
          out += '\n';
          break;
        case 'text:a': {
          const text = this.inline(node);
          const href = node.attrs['xlink:href'];
          out += href && !href.startsWith('#') ? `[${text}](${href})` : text;
          break;
        }
        case 'text:note': {
          const body = kids(node, 'text:note-body')[0];
          if (body) {
            this.footnotes.push(this.blocks(body).join(' '));
            out += `[^${this.footnotes.length}]`;
          }
          break;
        }
        case 'draw:frame':
        case 'office:annotation':
        case 'text:bookmark-ref':
          break;
        default:
          out += this.inline(node);
      }
    }
    return out;
  }
}

const ROW_GROUPS = new Set([
  'table:table-header-rows',
  'table:table-rows',
  'table:table-row-group',
]);

/** A table's own rows (not those of a table nested in a cell). */
function rowsOf(table: XmlElement): XmlElement[] {
  return kids(table).flatMap((child) =>
    child.name === 'table:table-row' ? [child] : ROW_GROUPS.has(child.name) ? rowsOf(child) : [],
  );
}
