import { load } from 'cheerio';
import { describe, expect, it } from 'vitest';
import {
  cleanDocument,
  collectLinks,
  htmlToMarkdown,
  htmlToText,
  loadPage,
} from '../../src/documents/html/htmlToText.js';

const page = new URL('https://site.test/dir/page.html');

function text(html: string): string {
  const { $, base } = loadPage(html, page);
  cleanDocument($, base);
  return htmlToText($);
}

describe('htmlToText', () => {
  it('breaks blocks into lines and collapses inline whitespace', () => {
    expect(text('<body><div>one\n   two</div><p>three <b>four</b></p>five<br>six</body>')).toBe(
      'one two\n\nthree four\n\nfive\nsix',
    );
  });

  it('marks headings and list items, keeps table rows on one line', () => {
    expect(
      text(
        '<h2>Title</h2><ul><li>a</li><li> b </li></ul><table><tr><td>x</td><td>y</td></tr></table>',
      ),
    ).toBe('## Title\n\n- a\n- b\n\nx | y');
  });

  it('keeps preformatted text verbatim', () => {
    expect(text('<p>code:</p><pre>  if (a) {\n    b();\n  }</pre>')).toBe(
      'code:\n\n  if (a) {\n    b();\n  }',
    );
  });

  it('drops scripts, styles, templates, svg, hidden and aria-hidden parts', () => {
    const out = text(
      '<p>keep</p><script>x()</script><style>.a{}</style><template>t</template><svg><text>s</text></svg>' +
        '<div hidden>h</div><span aria-hidden="true">a</span><div style="display: none">n</div>',
    );
    expect(out).toBe('keep');
  });

  it('handles a fragment without <body>', () => {
    const $ = load('<p>one</p><p>two</p>', null, false);
    expect(htmlToText($, null)).toBe('one\n\ntwo');
  });
});

describe('collectLinks', () => {
  it('resolves relative links, skips in-page and non-web links, de-duplicates', () => {
    const { $, base } = loadPage(
      '<a href="a.html">A</a><a href="/b">B</a><a href="a.html#frag">A2</a><a href="#x">X</a>' +
        '<a href="javascript:void(0)">J</a><a href="mailto:x@y">M</a><a href="page.html">self</a><a href="//cdn.test/c"><img alt="C img"></a>',
      page,
    );
    expect(collectLinks($, base, page, 10)).toEqual([
      { text: 'A', url: 'https://site.test/dir/a.html' },
      { text: 'B', url: 'https://site.test/b' },
      { text: 'C img', url: 'https://cdn.test/c' },
    ]);
  });
});

describe('htmlToMarkdown', () => {
  it('produces ATX headings, fenced code and - bullets', () => {
    const md = htmlToMarkdown('<h1>T</h1><ul><li>a</li></ul><pre><code>x = 1</code></pre>');
    expect(md).toMatch(/^# T\n\n- +a\n\n```\nx = 1\n```$/);
  });
});
