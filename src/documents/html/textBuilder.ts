/**
 * Accumulates readable text line by line: inline text has its whitespace collapsed the way
 * a browser would, block elements start new lines, paragraphs leave one blank line, and
 * preformatted text is kept verbatim.
 */
export class TextBuilder {
  private readonly lines: string[] = [];
  private current = '';

  /** Appends inline text, collapsing runs of whitespace to one space. */
  text(raw: string): void {
    let piece = raw.replace(/\s+/g, ' ');
    if (this.current === '' || this.current.endsWith(' ')) piece = piece.trimStart();
    this.current += piece;
  }

  /** Appends a literal string (a list bullet, a heading mark) without collapsing. */
  prefix(marker: string): void {
    this.current += marker;
  }

  /** Ends the current line, if anything is on it. */
  lineBreak(): void {
    const line = this.current.trimEnd();
    this.current = '';
    if (line !== '' && !/^(?:- |#+ )?\s*$/.test(line)) this.lines.push(line);
  }

  /** Ends the current line and leaves one blank line (never two). */
  paragraphBreak(): void {
    this.lineBreak();
    if (this.lines.length > 0 && this.lines[this.lines.length - 1] !== '') this.lines.push('');
  }

  /** Appends preformatted text as its own block, whitespace untouched. */
  pre(raw: string): void {
    this.paragraphBreak();
    for (const line of raw
      .replace(/\r\n?/g, '\n')
      .replace(/^\n|\n$/g, '')
      .split('\n')) {
      this.lines.push(line.trimEnd());
    }
    this.paragraphBreak();
  }

  /** True when the line being built already has content. */
  get lineHasText(): boolean {
    return this.current.trim() !== '';
  }

  toString(): string {
    this.lineBreak();
    return this.lines
      .join('\n')
      .replace(/\n{3,}/g, '\n\n')
      .trim();
  }
}
