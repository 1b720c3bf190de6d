/**
 * A long PDF made here, for the benchmarks: `pages` pages of text lines in Helvetica (one of
 * the 14 standard fonts, so nothing is embedded), written object by object with a correct
 * cross-reference table. No tool is needed to make it, and every run reads the same bytes.
 */
export function bigPdf(pages: number, linesPerPage = 40): Buffer {
  const objects: string[] = [];
  // 1: catalog, 2: page tree, 3: font; then a page and its content stream per page.
  const pageIds = Array.from({ length: pages }, (_, i) => 4 + i * 2);
  objects[1] = '<< /Type /Catalog /Pages 2 0 R >>';
  objects[2] = `<< /Type /Pages /Kids [${pageIds.map((id) => `${id} 0 R`).join(' ')}] /Count ${pages} >>`;
  objects[3] = '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>';
  for (let p = 0; p < pages; p++) {
    const lines: string[] = ['BT', '/F1 10 Tf', '12 TL', '50 760 Td'];
    for (let l = 0; l < linesPerPage; l++) {
      lines.push(
        `(Page ${p + 1} line ${l + 1}: the quarterly figures, the harbour budget and the plans for next year.) Tj T*`,
      );
    }
    lines.push('ET');
    const stream = lines.join('\n');
    const id = pageIds[p]!;
    objects[id] =
      `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 3 0 R >> >> /Contents ${id + 1} 0 R >>`;
    objects[id + 1] = `<< /Length ${Buffer.byteLength(stream)} >>\nstream\n${stream}\nendstream`;
  }
  let out = '%PDF-1.4\n';
  const offsets: number[] = [];
  for (let id = 1; id < objects.length; id++) {
    offsets[id] = Buffer.byteLength(out);
    out += `${id} 0 obj\n${objects[id]}\nendobj\n`;
  }
  const xref = Buffer.byteLength(out);
  out += `xref\n0 ${objects.length}\n0000000000 65535 f \n`;
  for (let id = 1; id < objects.length; id++) {
    out += `${String(offsets[id]).padStart(10, '0')} 00000 n \n`;
  }
  out += `trailer\n<< /Size ${objects.length} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(out, 'latin1');
}
