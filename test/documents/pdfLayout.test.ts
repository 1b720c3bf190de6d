import { describe, expect, it } from 'vitest';
import { pageMarkdown, type TextRun } from '../../src/documents/pdfLayout.js';

/** A run of `str` at (x, y) in a font of `size`, about half an em a character wide. */
function run(str: string, x: number, y: number, size = 10, hasEOL = false): TextRun {
  return {
    str,
    transform: [size, 0, 0, size, x, y],
    width: str.length * size * 0.5,
    height: size,
    hasEOL,
  };
}

describe('pageMarkdown', () => {
  it('joins runs on one line with a space only where there is a gap', () => {
    const markdown = pageMarkdown([run('Hello', 0, 700), run('world', 30, 700), run('!', 55, 700)]);
    expect(markdown).toBe('Hello world!');
  });

  it('joins wrapped lines into one paragraph and opens another after a gap', () => {
    const markdown = pageMarkdown([
      run('The quick brown fox jumps over', 0, 700),
      run('the lazy dog.', 0, 688),
      run('A second paragraph starts here', 0, 660),
    ]);
    expect(markdown).toBe(
      'The quick brown fox jumps over the lazy dog.\n\nA second paragraph starts here',
    );
  });

  it('keeps the break after a short line (a list, an address)', () => {
    const markdown = pageMarkdown([
      run('A body paragraph that runs the full width of the page.', 0, 730),
      run('Shopping list:', 0, 700),
      run('Milk', 0, 688),
      run('Bread', 0, 676),
    ]);
    expect(markdown).toContain('Shopping list:\nMilk\nBread');
  });

  it('makes a line set much larger than the body a heading', () => {
    const markdown = pageMarkdown([
      run('Results', 0, 720, 18),
      run('Body text of the page, long enough to be body.', 0, 690),
    ]);
    expect(markdown).toBe('### Results\n\nBody text of the page, long enough to be body.');
  });

  it('rejoins a word hyphenated at the end of a line, and CJK lines without a space', () => {
    expect(
      pageMarkdown([run('an extra-ordinarily long well-', 0, 700), run('known word', 0, 688)]),
    ).toBe('an extra-ordinarily long well-known word');
    expect(pageMarkdown([run('今天天气很好我们去公园散步吧', 0, 700), run('好的', 0, 688)])).toBe(
      '今天天气很好我们去公园散步吧好的',
    );
  });

  it('keeps the content order, so a second column follows the first', () => {
    const markdown = pageMarkdown([
      run('Left column line one', 0, 700),
      run('Left column line two', 0, 688),
      run('Right column top', 300, 700),
    ]);
    expect(markdown.indexOf('Left column line two')).toBeLessThan(
      markdown.indexOf('Right column top'),
    );
    expect(markdown).toContain('\n\nRight column top');
  });

  it('gives an empty page as empty text', () => {
    expect(pageMarkdown([])).toBe('');
    expect(pageMarkdown([run('', 0, 0, 10, true)])).toBe('');
  });
});
