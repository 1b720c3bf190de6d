/**
 * Rows of cells as a GitHub-flavoured Markdown table, the form a model reads tables in best.
 * Every table in the document readers (Office, OpenDocument, RTF, archives' member lists,
 * HTML in e-books, mail and feeds) is written here, so a cell is made safe one way.
 */

/**
 * One cell's text made safe for a table row: pipes and backslashes escaped, line breaks
 * become `<br>` and other control characters a space (a ZIP member name may hold any byte,
 * and a raw newline in a cell would end the row).
 */
export function tableCell(text: string): string {
  return (
    text
      .replace(/\r\n?/g, '\n')
      .trim()
      .replace(/\\/g, '\\\\')
      .replace(/\|/g, '\\|')
      .replace(/\n+/g, '<br>')
      // eslint-disable-next-line no-control-regex
      .replace(/[\u0000-\u001f\u007f]+/g, ' ')
  );
}

/**
 * A Markdown table; the first row is the header. Short rows are padded so every row has as
 * many cells as the widest; an empty list gives an empty string.
 */
export function markdownTable(rows: ReadonlyArray<readonly string[]>): string {
  if (rows.length === 0) return '';
  const width = Math.max(1, ...rows.map((r) => r.length));
  const line = (row: readonly string[]): string =>
    `| ${Array.from({ length: width }, (_, i) => tableCell(row[i] ?? '')).join(' | ')} |`;
  const [head, ...body] = rows;
  return [line(head ?? []), `|${' --- |'.repeat(width)}`, ...body.map(line)].join('\n');
}
