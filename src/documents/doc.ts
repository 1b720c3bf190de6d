/**
 * Legacy Word documents (.doc, Word 97–2003) through word-extractor, which reads the text
 * streams of the compound file: body, footnotes, endnotes, comments, headers. The body
 * comes as plain text, one paragraph a line, table rows as cells ending in tabs; those rows
 * become Markdown tables here. Headings and lists are not marked in the text it gives.
 */
import WordExtractor from 'word-extractor';
import { markdownTable } from './markdownTable.js';
import { oleSummary } from './oleSummary.js';
import { wordDocument } from './wordParts.js';
import type { ExtractInput, ExtractedDocument } from './types.js';
import { DocumentError, libraryFailure } from './types.js';
import { isCompoundFile } from './zipParts.js';

export async function extract(input: ExtractInput): Promise<ExtractedDocument> {
  if (!isCompoundFile(input.bytes)) {
    throw new DocumentError(
      'malformed',
      `"${input.name}" is not a Word 97–2003 document (it is not an OLE compound file); ` +
        'if it was saved by a newer Word, rename it to .docx.',
    );
  }
  let doc: WordExtractor.Document;
  try {
    doc = await new WordExtractor().extract(
      Buffer.from(input.bytes.buffer, input.bytes.byteOffset, input.bytes.byteLength),
    );
  } catch (error) {
    throw libraryFailure(input.name, error, 'a Word 97–2003 document');
  }
  const sections: string[] = [bodyMarkdown(doc.getBody())];
  const extras: Array<[string, string]> = [
    ['Footnotes', doc.getFootnotes()],
    ['Endnotes', doc.getEndnotes()],
    ['Comments', doc.getAnnotations()],
    ['Headers and footers', doc.getHeaders({ includeFooters: true })],
    ['Text boxes', doc.getTextboxes({ includeHeadersAndFooters: false })],
  ];
  for (const [title, text] of extras) {
    if (text.trim()) sections.push(`## ${title}\n\n${bodyMarkdown(text)}`);
  }
  const markdown = sections.filter((s) => s.trim()).join('\n\n');
  const notes = markdown ? [] : ['The document has no text.'];
  return wordDocument(
    input,
    { kind: 'doc', label: 'Word 97–2003 document', meta: oleSummary(input.bytes) },
    markdown,
    notes,
  );
}

/** Paragraph lines as Markdown paragraphs; runs of tab-ended lines (table rows) as tables. */
export function bodyMarkdown(text: string): string {
  const blocks: string[] = [];
  let table: string[][] = [];
  const flush = (): void => {
    if (table.length > 0) blocks.push(markdownTable(table));
    table = [];
  };
  for (const raw of text.replace(/\r\n?/g, '\n').split('\n')) {
    // Word's field and object marks are control characters in the text; tabs stay.
    // eslint-disable-next-line no-control-regex
    const line = raw.replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f]/g, '');
    if (line.endsWith('\t') && line.includes('\t')) {
      table.push(line.slice(0, -1).split('\t'));
      continue;
    }
    flush();
    if (line.trim()) blocks.push(line.trim());
  }
  flush();
  return blocks.join('\n\n');
}
