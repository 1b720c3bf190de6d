/**
 * Rows of cells as a GitHub-flavoured Markdown table, the form a model reads tables in best.
 * A cell's pipes are escaped and its line breaks become `<br>`, so one row stays one line.
 */

/** One cell's text made safe for a table row. */
export function tableCell(text: string): string {
  return text
    .replace(/\r\n?/g, '\n')
    .trim()
    .replace(/\\/g, '\\\\')
    .replace(/\|/g, '\\|')
    .replace(/\n+/g, '<br>');
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
