/**
 * Word-processing formats (.docx, .odt, .rtf, .doc) as Markdown: headings, lists, tables,
 * images named and never inlined, metadata up front, long documents cut into parts at their
 * headings, and the character cap said when it cuts.
 */
import { describe, expect, it } from 'vitest';
import { rtfToMarkdown } from '../../src/documents/rtf.js';
import { extractBytes, extractFixture, rendered } from './officeFixture.js';

describe('.docx (mammoth)', () => {
  it('keeps headings, nested lists, numbered lists and the table, and names the image', async () => {
    const doc = await extractFixture('docx', 'report.docx');
    expect(doc).toMatchObject({ kind: 'docx', unitName: 'part', unitCount: 1 });
    const md = doc.units[0]?.markdown ?? '';
    expect(md).toContain('# Findings');
    expect(md).toContain('## Revenue by region');
    expect(md).toMatch(/^- +Order spare lamp mantles\n +- +two for the north tower$/m);
    expect(md).toMatch(/^1\. +Survey the channel$/m);
    expect(md).toContain(
      '| Region | Revenue | Ships |\n| --- | --- | --- |\n| North | 1200 | 18 |',
    );
    expect(md).toContain('[image: Harbour chart]');
    expect(md).not.toMatch(/base64|data:image/);
    expect(md).toContain('[port authority](https://example.org/port)');
  });

  it('puts title and author first', async () => {
    const doc = await extractFixture('docx', 'report.docx');
    expect(doc.meta.slice(0, 2)).toEqual([
      ['Title', 'Quarterly Harbour Report'],
      ['Author', 'Ada Lovelace'],
    ]);
  });

  it('says where the character cap cut it', async () => {
    const doc = await extractFixture('docx', 'report.docx', {}, { maxChars: 120 });
    expect(rendered(doc).length).toBeLessThan(400);
    expect(doc.notes.join(' ')).toMatch(/Output cap of 120 characters reached: part 1 is cut/);
  });
});

describe('.odt', () => {
  it('reads headings by outline level, lists by their style, the table and the image name', async () => {
    const doc = await extractFixture('odt', 'report.odt');
    const md = doc.units[0]?.markdown ?? '';
    expect(md).toContain('# Findings\n\nThe lighthouse keeper');
    expect(md).toContain('- Order spare lamp mantles\n   - two for the north tower');
    expect(md).toContain('1. Survey the channel\n2. File the tide tables');
    expect(md).toContain('| South | 950 | 24 |');
    expect(md).toMatch(/\[image: \w+\]/);
    expect(doc.meta).toContainEqual(['Author', 'Ada Lovelace']);
  });
});

describe('.rtf', () => {
  it('reads headings from the style sheet, lists, the table and the \\info group', async () => {
    const doc = await extractFixture('rtf', 'report.rtf');
    const md = doc.units[0]?.markdown ?? '';
    expect(md).toContain('# Findings');
    expect(md).toContain('## Actions');
    expect(md).toContain('- Repaint the breakwater beacon');
    expect(md).toContain('| North | 1200 | 18 |');
    expect(md).toContain('季度报告显示港口吞吐量增长了百分之十二');
    expect(doc.meta).toContainEqual(['Title', 'Quarterly Harbour Report']);
  });

  it('decodes 8-bit text in the document code page and skips the \\u fallback', () => {
    // "灯塔" in GBK is B5 C6 CB FE; 船 is U+8239, written as a signed 16-bit \u-32199 with "?"
    // as the fallback that readers without Unicode show.
    const source =
      "{\\rtf1\\ansi\\ansicpg936{\\fonttbl{\\f0 SimSun;}}\\f0 \\'b5\\'c6\\'cb\\'fe \\u-32199?\\par}";
    expect(rtfToMarkdown(source, 'x.rtf').markdown).toBe('灯塔 船');
  });

  it("reads Windows-1252's curly quotes and euro sign (Node 20 decodes that code page as Latin-1)", () => {
    const source = "{\\rtf1\\ansi\\ansicpg1252 \\'93Dock fee\\'94 \\'80 12\\par}";
    expect(rtfToMarkdown(source, 'x.rtf').markdown).toBe('“Dock fee” € 12');
  });

  it("leaves out pictures, fields' instructions and hidden destinations, keeping field results", () => {
    const source =
      '{\\rtf1{\\*\\generator Writer;}{\\pict\\pngblip 89504e47}' +
      '{\\field{\\*\\fldinst HYPERLINK "https://x.org"}{\\fldrslt the harbour site}}\\par}';
    expect(rtfToMarkdown(source, 'x.rtf').markdown).toBe('the harbour site');
  });
});

describe('.doc (word-extractor)', () => {
  it('reads paragraphs, turns tab-ended rows into a table, and takes the summary for meta', async () => {
    const doc = await extractFixture('doc', 'report.doc');
    const md = doc.units[0]?.markdown ?? '';
    expect(md).toContain('The lighthouse keeper counted forty-two ships');
    expect(md).toContain('| Region | Revenue | Ships |\n| --- | --- | --- |');
    expect(doc.meta).toContainEqual(['Title', 'Quarterly Harbour Report']);
    expect(doc.meta).toContainEqual(['Author', 'Ada Lovelace']);
  });
});

describe('long documents', () => {
  it('are cut into parts at top-level headings, and a range of parts reads only those', async () => {
    const body = Array.from(
      { length: 6 },
      (_, i) =>
        `{\\pard\\outlinelevel0 Chapter ${i + 1}\\par}{\\pard ${'word '.repeat(6000)}\\par}`,
    ).join('');
    const bytes = Buffer.from(`{\\rtf1\\ansi ${body}}`);
    const all = await extractBytes('rtf', 'long.rtf', bytes);
    expect(all.unitCount).toBe(6);
    expect(all.units.map((u) => u.title)).toEqual([1, 2, 3, 4, 5, 6].map((n) => `Chapter ${n}`));
    const some = await extractBytes('rtf', 'long.rtf', bytes, { units: { from: 5, to: 9 } });
    expect(some.units.map((u) => u.number)).toEqual([5, 6]);
    expect(some.units[0]?.markdown).toMatch(/^# Chapter 5/);
    const none = await extractBytes('rtf', 'long.rtf', bytes, { units: { from: 9, to: 9 } });
    expect(none.units).toEqual([]);
    expect(none.notes[0]).toMatch(/There is no part 9: "long\.rtf" has 6 parts \(1–6\)/);
  });
});
