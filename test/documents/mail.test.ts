import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { extract as extractEml } from '../../src/documents/eml.js';
import { extract as extractMsg } from '../../src/documents/msg.js';
import {
  FIXTURES,
  allText,
  bytesInput,
  documentError,
  expectedPhrases,
  fixtureInput,
} from './miscFixtures.js';
import { DocumentError } from '../../src/documents/types.js';

describe('e-mail (.eml)', () => {
  it('reads from, to, cc, date and subject up front, the HTML body as Markdown, attachments named', async () => {
    const doc = await extractEml(fixtureInput('harbour.eml'));
    for (const phrase of expectedPhrases('harbour.eml')) expect(allText(doc)).toContain(phrase);
    expect(doc.meta).toEqual([
      ['From', 'Mira Okonkwo <mira@harbour.example>'],
      ['To', 'Tide Office <tides@harbour.example>, 王芳 <wang.fang@harbour.example>'],
      ['Cc', 'keeper@harbour.example'],
      ['Date', '2024-03-15T09:30:00.000Z'],
      ['Subject', '港口月报 — March harbour report'],
      ['Attachments', '1'],
    ]);
    const body = doc.units[0]!.markdown;
    expect(body).toContain('# March report');
    expect(body).toContain('The harbour logged **42 ship arrivals** in March.');
    expect(body).toContain('| Week | Ships |\n| --- | --- |\n| 1 | 9 |');
    expect(body).toMatch(/\*\*Attachments:\*\*\n\n- arrivals\.csv \(\d+ B\)$/);
  });

  it('a mail with an enormous header is refused quickly, by name', async () => {
    const junk = `X-Junk: ${'a'.repeat(70)}\r\n`.repeat(40_000); // ~3 MB of header
    const mail = `From: a@example.com\r\nSubject: big\r\n${junk}\r\nbody\r\n`;
    const started = performance.now();
    const e = await documentError(() => extractEml(bytesInput('huge.eml', mail)));
    expect(performance.now() - started).toBeLessThan(5000);
    expect(e.kind).toBe('too_large');
    expect(e.message).toMatch(/^"huge.eml": its mail headers pass 1 MB/);
  });

  it('text with no mail headers is not an e-mail', async () => {
    const e = await documentError(() => extractEml(bytesInput('notes.eml', '')));
    expect(e.message).toBe(
      '"notes.eml" is not an e-mail: it has no mail headers (From:, To:, Subject:).',
    );
  });

  it('a body past the output cap is cut and says so', async () => {
    const doc = await extractEml(fixtureInput('harbour.eml', {}, { maxChars: 40 }));
    expect(doc.units[0]!.markdown).toHaveLength(40);
    expect(doc.notes).toEqual(['the message was cut at 40 characters (the output cap).']);
  });
});

describe('Outlook e-mail (.msg)', () => {
  it('reads sender, recipients by kind, date, subject, the HTML body and attachments', async () => {
    const doc = await extractMsg(fixtureInput('harbour.msg'));
    for (const phrase of expectedPhrases('harbour.msg')) expect(allText(doc)).toContain(phrase);
    expect(doc.label).toBe('Outlook e-mail');
    expect(doc.meta).toEqual([
      ['From', 'Harbour Master <master@harbour.example>'],
      ['To', 'Mira Okonkwo <mira@harbour.example>'],
      ['Cc', 'Tide Office <tides@harbour.example>'],
      ['Date', 'Fri, 15 Mar 2024 09:30:00 GMT'],
      ['Subject', 'Berth 4 dredging done / 四号泊位'],
      ['Attachments', '1'],
    ]);
    expect(doc.units[0]!.markdown).toBe(
      'The dredger **Pelican** cleared berth 4 on Friday.\n\n疏浚船已完成四号泊位的清淤。\n\n' +
        '**Attachments:**\n\n- soundings.csv (19 B)',
    );
  });

  it('reads the message when its bytes are a view into a larger buffer', async () => {
    const file = readFileSync(path.join(FIXTURES, 'harbour.msg'));
    const big = new Uint8Array(file.length + 4096);
    big.set(file, 4096);
    const doc = await extractMsg(bytesInput('view.msg', big.subarray(4096)));
    expect(doc.meta).toContainEqual(['Subject', 'Berth 4 dredging done / 四号泊位']);
  });

  it('a truncated or foreign .msg gives a clear error, never a crash', async () => {
    const file = new Uint8Array(readFileSync(path.join(FIXTURES, 'harbour.msg')));
    for (const keep of [512, 1000, 3000, file.length - 600]) {
      const e = await documentError(() => extractMsg(bytesInput('cut.msg', file.slice(0, keep))));
      expect(e.kind).toBe('malformed');
      expect(e.message).toMatch(
        /^"cut.msg" (is a damaged Outlook message|is not an Outlook message)/,
      );
    }
    const text = await documentError(() => extractMsg(bytesInput('note.msg', 'hello')));
    expect(text.message).toBe(
      '"note.msg" is not an Outlook message (.msg): it is not a Compound File, which every .msg is.',
    );
  });

  it('a .msg whose chain loops or whose stream claims a gigabyte is refused at once', async () => {
    const file = new Uint8Array(readFileSync(path.join(FIXTURES, 'harbour.msg')));
    const view = (b: Uint8Array): DataView => new DataView(b.buffer);
    const looping = file.slice();
    const fatAt = (view(looping).getUint32(0x4c, true) + 1) * 512;
    const directory = view(looping).getUint32(0x30, true);
    view(looping).setUint32(fatAt + 4 * directory, directory, true); // the directory's next sector: itself
    const huge = file.slice();
    huge[(view(huge).getUint32(0x30, true) + 1) * 512 + 3 * 128 + 123] = 67; // a stream of ~1.1 GB
    for (const [bytes, what] of [
      [looping, 'the chain of its directory loops back on itself'],
      [huge, /a stream claims \d+ bytes in a file of 7168/],
    ] as const) {
      const started = performance.now();
      const e = await documentError(() => extractMsg(bytesInput('bad.msg', bytes)));
      expect(performance.now() - started).toBeLessThan(1000);
      expect(e.message).toMatch(/^"bad.msg" is a damaged Outlook message: /);
      expect(e.message).toMatch(what);
    }
  });

  it('random damage to a .msg gives a DocumentError every time, never a hang or a TypeError', async () => {
    const file = new Uint8Array(readFileSync(path.join(FIXTURES, 'harbour.msg')));
    let seed = 7;
    const random = (n: number): number => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return Math.floor((seed / 2147483648) * n);
    };
    for (let i = 0; i < 200; i++) {
      const bytes = file.slice();
      for (let k = 0; k <= random(8); k++) bytes[random(file.length)] = random(256);
      await extractMsg(bytesInput('fuzz.msg', bytes)).catch((e: unknown) => {
        if (!(e instanceof DocumentError)) throw e;
      });
    }
  });
});
