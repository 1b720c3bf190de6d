/**
 * Inline Markdown (emphasis, code, links, line breaks) from marked's tokens to styled spans.
 * Raw HTML is shown as typed except for a few harmless tags, and entities are decoded.
 */
import type { Token, Tokens } from 'marked';
import { withStyle, type Span, type SpanStyle } from './spans.js';

const ENTITIES: Record<string, string> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  nbsp: ' ',
};

/** `&amp;`, `&#39;`, `&#x4e2d;` and friends as the characters they stand for. */
export function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#[0-9]+|[a-z]+);/gi, (whole, name: string) => {
    if (name[0] === '#') {
      const code =
        name[1] === 'x' || name[1] === 'X' ? parseInt(name.slice(2), 16) : +name.slice(1);
      return Number.isFinite(code) && code > 0 && code <= 0x10ffff
        ? String.fromCodePoint(code)
        : whole;
    }
    return ENTITIES[name.toLowerCase()] ?? whole;
  });
}

/** Tags that only style their content: dropped, the text between them kept. */
const QUIET_TAGS = /^<\/?(b|i|em|strong|u|s|del|sup|sub|span|kbd|mark|small)\b[^>]*>$/i;

/** Styles for the inline elements (one place, so the look is consistent). */
const INLINE = {
  strong: { bold: true },
  em: { italic: true },
  del: { strikethrough: true },
  code: { color: 'yellow' },
  link: { color: 'blue', underline: true },
  url: { dimColor: true },
} satisfies Record<string, SpanStyle>;

/** The spans of inline `tokens`; a `\n` inside a span's text is a hard line break. */
export function inlineSpans(tokens: readonly Token[] | undefined): Span[] {
  const out: Span[] = [];
  for (const tok of tokens ?? []) out.push(...inlineToken(tok));
  return out;
}

function inlineToken(tok: Token): Span[] {
  switch (tok.type) {
    case 'text': {
      const t = tok as Tokens.Text;
      return t.tokens ? inlineSpans(t.tokens) : [{ text: decodeEntities(t.text) }];
    }
    case 'escape':
      return [{ text: (tok as Tokens.Escape).text }];
    case 'strong':
      return withStyle(inlineSpans((tok as Tokens.Strong).tokens), INLINE.strong);
    case 'em':
      return withStyle(inlineSpans((tok as Tokens.Em).tokens), INLINE.em);
    case 'del':
      return withStyle(inlineSpans((tok as Tokens.Del).tokens), INLINE.del);
    case 'codespan':
      return [{ text: decodeEntities((tok as Tokens.Codespan).text), style: INLINE.code }];
    case 'br':
      return [{ text: '\n' }];
    case 'link':
      return linkSpans(tok as Tokens.Link);
    case 'image': {
      const img = tok as Tokens.Image;
      return [{ text: `[${img.text || 'image'}] `, style: INLINE.em }, urlSpan(img.href)];
    }
    case 'html': {
      const raw = (tok as Tokens.HTML).raw;
      if (QUIET_TAGS.test(raw.trim())) return [];
      if (/^<br\s*\/?>$/i.test(raw.trim())) return [{ text: '\n' }];
      return [{ text: raw }];
    }
    case 'checkbox':
      return [];
    default:
      return [{ text: decodeEntities(tok.raw) }];
  }
}

function urlSpan(href: string): Span {
  return { text: `(${href})`, style: { ...INLINE.url, link: href } };
}

/** A link as its text, then the URL when it says more than the text does. */
function linkSpans(link: Tokens.Link): Span[] {
  const text = withStyle(inlineSpans(link.tokens), { ...INLINE.link, link: link.href });
  const shown = text.map((s) => s.text).join('');
  const bare = link.href.replace(/^mailto:/, '');
  if (shown === link.href || shown === bare || link.href === '') return text;
  return [...text, { text: ' ' }, urlSpan(link.href)];
}
