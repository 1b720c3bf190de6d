/**
 * Parses CSV as Windows tools print it (`tasklist /FO CSV`): fields separated by commas,
 * optionally double-quoted, `""` inside quotes for a quote, CRLF or LF line ends.
 * Blank lines are skipped.
 */
export function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  let fieldStarted = false;
  const endRow = (): void => {
    if (fieldStarted || row.length > 0) {
      row.push(field);
      rows.push(row);
    }
    row = [];
    field = '';
    fieldStarted = false;
  };
  for (let i = 0; i < text.length; i += 1) {
    const char = text[i]!;
    if (quoted) {
      if (char === '"' && text[i + 1] === '"') {
        field += '"';
        i += 1;
      } else if (char === '"') {
        quoted = false;
      } else {
        field += char;
      }
    } else if (char === '"') {
      quoted = true;
      fieldStarted = true;
    } else if (char === ',') {
      row.push(field);
      field = '';
      fieldStarted = true;
    } else if (char === '\n' || char === '\r') {
      if (char === '\r' && text[i + 1] === '\n') i += 1;
      endRow();
    } else {
      field += char;
      fieldStarted = true;
    }
  }
  endRow();
  return rows;
}
