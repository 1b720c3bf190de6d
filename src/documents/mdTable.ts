/** A Markdown table from plain text cells, each made safe to sit between pipes. */
export function markdownTable(
  header: readonly string[],
  rows: readonly (readonly string[])[],
): string {
  const line = (cells: readonly string[]): string => `| ${cells.map(tableCell).join(' | ')} |`;
  return [line(header), `|${header.map(() => ' --- |').join('')}`, ...rows.map(line)].join('\n');
}

/**
 * One cell's text: pipes escaped, line breaks and other control characters shown as spaces
 * (a member name may hold any byte, and a newline in it would end the row).
 */
export function tableCell(text: string): string {
  // eslint-disable-next-line no-control-regex
  return text.replace(/[\u0000-\u001f\u007f]+/g, ' ').replace(/\|/g, '\\|');
}
