/**
 * Presentations (.pptx, .odp): one unit per slide headed by its title, bullets and numbered
 * items, tables, charts with their title and values, speaker notes, and slide ranges.
 */
import { describe, expect, it } from 'vitest';
import { withPart } from './craftZip.js';
import { extractBytes, extractFixture, fixtureBytes } from './officeFixture.js';

describe.each([
  ['pptx', 'deck.pptx', 'charts.pptx'],
  ['odp', 'deck.odp', 'charts.odp'],
] as const)('.%s', (kind, deck, charts) => {
  it('gives a unit per slide, headed by its title, with its notes after its text', async () => {
    const doc = await extractFixture(kind, deck);
    expect(doc).toMatchObject({ kind, unitName: 'slide', unitCount: 4 });
    expect(doc.meta).toContainEqual(['Slides', '4']);
    expect(doc.units.map((u) => u.title)).toEqual([
      'Slide 1: Harbour Review',
      'Slide 2: Traffic this quarter',
      'Slide 3: Tide table',
      'Slide 4: Next steps',
    ]);
    expect(doc.units[1]?.markdown).toBe(
      '- Forty-two ships entered the northern channel\n- 港口吞吐量创新高\n\n' +
        '**Notes:**\n\nThank the harbour master for the night shifts.',
    );
    expect(doc.units[2]?.markdown).toContain('| Day | High tide | Low tide |\n| --- | --- | --- |');
    expect(doc.units[3]?.markdown).toBe('1. Dredge the south berth\n2. Replace the beacon lamp');
  });

  it('reads a range of slides, and says when the range is past the end', async () => {
    const some = await extractFixture(kind, deck, { units: { from: 3, to: 10 } });
    expect(some.units.map((u) => u.number)).toEqual([3, 4]);
    expect(some.unitCount).toBe(4);
    const none = await extractFixture(kind, deck, { units: { from: 7, to: 8 } });
    expect(none.units).toEqual([]);
    expect(none.notes[0]).toBe(`There is no slide 7–8: "${deck}" has 4 slides (1–4).`);
  });

  it("gives a chart's title, kind and values as a table", async () => {
    const doc = await extractFixture(kind, charts);
    expect(doc.units[0]?.markdown).toContain(
      'Chart: Ships entering by quarter (bar chart)\n\n' +
        '| Category | North berth | South berth |\n| --- | --- | --- |\n| Q1 | 18 | 24 |\n| Q2 | 27 | 31 |',
    );
    expect(doc.units[0]?.markdown).toContain('**Notes:**\n\nQ2 was the busiest quarter on record.');
  });

  it('stops at the character cap and says which slides to ask for', async () => {
    const doc = await extractFixture(kind, deck, {}, { maxChars: 150 });
    expect(doc.units.length).toBeLessThan(4);
    expect(doc.notes.join(' ')).toMatch(/ask for slides \d–4/);
  });
});

describe('.pptx pictures', () => {
  it('are named by their description, never inlined', async () => {
    const slide = fixtureBytes('deck.pptx');
    const pic =
      '<p:pic><p:nvPicPr><p:cNvPr id="9" name="Picture 8" descr="Map of the north berth"/>' +
      '<p:cNvPicPr/><p:nvPr/></p:nvPicPr><p:blipFill><a:blip r:embed="rId9"/></p:blipFill><p:spPr/></p:pic>';
    const xml =
      '<?xml version="1.0"?><p:sld xmlns:a="a" xmlns:r="r" xmlns:p="p"><p:cSld><p:spTree>' +
      `${pic}</p:spTree></p:cSld></p:sld>`;
    const doc = await extractBytes(
      'pptx',
      'pic.pptx',
      withPart(slide, 'ppt/slides/slide4.xml', xml),
      {
        units: { from: 4, to: 4 },
      },
    );
    expect(doc.units[0]?.markdown).toBe('[image: Map of the north berth]');
  });
});
