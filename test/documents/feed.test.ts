import { describe, expect, it } from 'vitest';
import { extract } from '../../src/documents/feed.js';
import {
  allText,
  bytesInput,
  documentError,
  expectedPhrases,
  fixtureInput,
} from './miscFixtures.js';

describe('RSS and Atom feeds', () => {
  it('reads an RSS feed: the channel, then each item with date, link and summary', async () => {
    const doc = await extract(fixtureInput('harbour.rss'));
    const shown = allText(doc);
    for (const phrase of expectedPhrases('harbour.rss')) expect(shown).toContain(phrase);
    expect(doc.label).toBe('RSS feed');
    expect(doc.meta).toContainEqual(['Description', 'News from the lighthouse & the docks.']);
    expect(doc.unitName).toBe('item');
    expect(doc.units[0]).toEqual({
      number: 1,
      title: 'Item 1: Fog season begins',
      markdown:
        'Date: Fri, 15 Mar 2024 09:30:00 GMT\nLink: https://harbour.example/fog\nAuthor: Mira Okonkwo\n\n' +
        'The keeper lit the **foghorn** at dawn.\n\n[image: the horn, embedded image/png]',
    });
    expect(shown).not.toContain('base64');
  });

  it('reads an Atom feed', async () => {
    const doc = await extract(fixtureInput('harbour.atom'));
    const shown = allText(doc);
    for (const phrase of expectedPhrases('harbour.atom')) expect(shown).toContain(phrase);
    expect(doc.label).toBe('Atom feed');
    expect(doc.meta).toContainEqual(['Link', 'https://harbour.example/log']);
    expect(doc.units[0]!.markdown).toContain('Link: https://harbour.example/log/tide');
    expect(doc.units[0]!.markdown).toContain('The spring tide peaked at *4.2 metres*.');
  });

  it('a "billion laughs" in a feed is never expanded', async () => {
    const started = performance.now();
    const doc = await extract(fixtureInput('laughs.rss'));
    expect(performance.now() - started).toBeLessThan(2000);
    expect(allText(doc)).not.toContain('lollol');
    expect(doc.units[0]!.title).toBe('Item 1: Fog season begins &lol9;');
    expect(doc.notes[0]).toContain('declares its own XML entities; they were not expanded');
  });

  it('XML that is not a feed, and text that is not XML, are named', async () => {
    const html = await documentError(() => extract(bytesInput('page.xml', '<html><body/></html>')));
    expect(html.message).toBe('"page.xml" is not an RSS or Atom feed: its root element is <html>.');
    const none = await documentError(() => extract(bytesInput('x.rss', 'just words')));
    expect(none.message).toBe('"x.rss" is not an RSS or Atom feed: no XML element was found.');
  });

  it('a truncated feed still gives the items that arrived whole', async () => {
    const text = new TextDecoder().decode(fixtureInput('harbour.rss').bytes);
    const cut = text.slice(0, text.indexOf('<title>渔船返港'));
    const doc = await extract(bytesInput('cut.rss', cut));
    expect(doc.units[0]!.title).toBe('Item 1: Fog season begins');
  });
});
