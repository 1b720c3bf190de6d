/**
 * Hostile Office files, crafted as real files in a temp folder and read back: zip bombs
 * (with honest and with lying size headers) against each reading path (our own parts
 * reader, mammoth, SheetJS), XML entity expansion ("billion laughs") and external
 * entities, truncated packages, files whose content is not what their name says, encrypted
 * packages and deeply nested RTF. Each gives a DocumentError naming the file and the
 * problem, quickly, and nothing crashes.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import * as XLSX from '@e965/xlsx';
import { afterAll, describe, expect, it } from 'vitest';
import type { DocumentKind, ExtractLimits } from '../../src/documents/types.js';
import { DocumentError } from '../../src/documents/types.js';
import { parseXml } from '../../src/documents/xmlTree.js';
import { craftZip, entriesOf, withPart } from './craftZip.js';
import { extractBytes, fixtureBytes } from './officeFixture.js';

const dir = mkdtempSync(path.join(tmpdir(), 'cogito-office-attacks-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Writes the crafted bytes as a real file and reads them back, as `read` would. */
function onDisk(name: string, bytes: Uint8Array): Uint8Array {
  const file = path.join(dir, name);
  writeFileSync(file, bytes);
  return new Uint8Array(readFileSync(file));
}

async function failure(
  kind: DocumentKind,
  name: string,
  bytes: Uint8Array,
  limits: Partial<ExtractLimits> = {},
): Promise<DocumentError> {
  const started = Date.now();
  const error = await extractBytes(kind, name, onDisk(name, bytes), {}, limits).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(Date.now() - started).toBeLessThan(10_000);
  expect(error).toBeInstanceOf(DocumentError);
  const documentError = error as DocumentError;
  expect(documentError.message).toContain(`"${name}"`);
  return documentError;
}

/** 64 MB of zeros deflates to about 64 KB. */
const BOMB = new Uint8Array(64 * 1024 * 1024);
const LIMIT = { maxInflatedBytes: 8 * 1024 * 1024 };

const LAUGHS =
  '<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol">' +
  Array.from({ length: 9 }, (_, i) => {
    const prev = i === 0 ? 'lol' : `lol${i}`;
    return `<!ENTITY lol${i + 1} "${`&${prev};`.repeat(10)}">`;
  }).join('') +
  ']>';
const XXE = '<?xml version="1.0"?><!DOCTYPE x [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>';

/** Each package kind with a fixture and the XML part every reader of it must parse. */
const PACKAGES: ReadonlyArray<
  readonly [kind: DocumentKind, fixture: string, part: string, root: string]
> = [
  ['docx', 'report.docx', 'word/document.xml', 'w:document'],
  ['odt', 'report.odt', 'content.xml', 'office:document-content'],
  ['pptx', 'deck.pptx', 'ppt/presentation.xml', 'p:presentation'],
  ['odp', 'deck.odp', 'content.xml', 'office:document-content'],
  ['xlsx', 'budget.xlsx', 'xl/workbook.xml', 'workbook'],
  ['ods', 'budget.ods', 'content.xml', 'office:document-content'],
];

describe('zip bombs', () => {
  it.each(PACKAGES)(
    'a %s with a 64 MB part stops at maxInflatedBytes',
    async (kind, fixture, part) => {
      const bomb = withPart(fixtureBytes(fixture), part, BOMB);
      expect(bomb.length).toBeLessThan(1024 * 1024);
      const error = await failure(kind, `bomb.${kind}`, bomb, LIMIT);
      expect(error.kind).toBe('too_large');
      expect(error.message).toMatch(/zip bomb/);
    },
  );

  it('a part whose headers declare 100 bytes but inflate to 64 MB is still stopped', async () => {
    const entries = entriesOf(fixtureBytes('deck.pptx')).filter(
      (e) => e.name !== 'ppt/slides/slide1.xml',
    );
    const liar = craftZip([
      ...entries,
      { name: 'ppt/slides/slide1.xml', data: BOMB, declaredSize: 100 },
    ]);
    const error = await failure('pptx', 'liar.pptx', liar, LIMIT);
    expect(error.kind).toBe('too_large');
  });

  it('the budget is shared: many parts each under the limit are stopped together', async () => {
    const chunk = new Uint8Array(3 * 1024 * 1024);
    const entries = entriesOf(fixtureBytes('report.docx'));
    const many = craftZip([
      ...entries,
      ...[1, 2, 3, 4].map((n) => ({ name: `word/media/pad${n}.bin`, data: chunk })),
    ]);
    const error = await failure('docx', 'many.docx', many, LIMIT);
    expect(error.kind).toBe('too_large');
  });
});

describe('XML entity expansion and external entities', () => {
  it.each(PACKAGES)(
    'a %s whose part declares a billion laughs is refused unexpanded',
    async (kind, fixture, part, root) => {
      const laughs = withPart(fixtureBytes(fixture), part, `${LAUGHS}<${root}>&lol9;</${root}>`);
      const error = await failure(kind, `laughs.${kind}`, laughs);
      expect(error.kind).toBe('malformed');
      expect(error.message).toMatch(/document type/);
    },
  );

  it.each(PACKAGES)(
    'a %s with an external entity never reads the file it names',
    async (kind, fixture, part, root) => {
      const xxe = withPart(fixtureBytes(fixture), part, `${XXE}<${root}>&xxe;</${root}>`);
      const error = await failure(kind, `xxe.${kind}`, xxe);
      expect(error.message).not.toContain('root:');
      expect(error.message).toMatch(/document type/);
    },
  );

  it.each(PACKAGES)(
    'a %s part nested 100,000 elements deep is refused quickly',
    async (kind, fixture, part, root) => {
      const deep = `<${root}>${'<x:p a="1">'.repeat(100_000)}${'</x:p>'.repeat(100_000)}</${root}>`;
      const error = await failure(
        kind,
        `deep.${kind}`,
        withPart(fixtureBytes(fixture), part, deep),
      );
      expect(error.message).toMatch(/nests elements deeper than 256|Maximum nested tags exceeded/);
    },
  );

  it('the XML reader itself refuses a DTD, and leaves an undeclared entity as text', () => {
    expect(() => parseXml(`${LAUGHS}<a>&lol9;</a>`, 'part.xml', 'x.docx')).toThrow(DocumentError);
    const root = parseXml('<a>x &lol; &#x4E2D; &amp;</a>', 'part.xml', 'x.docx');
    expect(root.children.join('')).toBe('x &lol; 中 &');
  });
});

describe('malformed and disguised files', () => {
  it.each(PACKAGES)('a truncated %s says it is damaged or truncated', async (kind, fixture) => {
    const whole = fixtureBytes(fixture);
    const error = await failure(
      kind,
      `cut.${kind}`,
      whole.subarray(0, Math.floor(whole.length / 2)),
    );
    expect(error.kind).toBe('malformed');
    expect(error.message).toMatch(/truncated|damaged/);
  });

  it.each(PACKAGES)('a text file named .%s says it is not one', async (kind) => {
    const error = await failure(
      kind,
      `notes.${kind}`,
      Buffer.from('just some notes, not a package\n'),
    );
    expect(error.kind).toBe('malformed');
    expect(error.message).toMatch(/not a readable|not an?/);
  });

  it('a ZIP that is not a Word document says what is missing', async () => {
    const error = await failure(
      'docx',
      'photos.docx',
      craftZip([{ name: 'a.txt', data: Buffer.from('hi') }]),
    );
    expect(error.message).toMatch(/without word\/document\.xml/);
  });

  it('a broken XML part names the part', async () => {
    const broken = withPart(fixtureBytes('deck.pptx'), 'ppt/slides/slide2.xml', '<p:sld><p:cSld>');
    const error = await failure('pptx', 'broken.pptx', broken);
    expect(error.message).toMatch(/slide2\.xml/);
  });

  it('a .doc that is not an OLE file, and an .rtf that is not RTF, say so', async () => {
    expect((await failure('doc', 'memo.doc', Buffer.from('plain text'))).message).toMatch(
      /not a Word 97/,
    );
    expect((await failure('rtf', 'memo.rtf', Buffer.from('plain text'))).message).toMatch(
      /not an RTF/,
    );
  });

  it('a .doc with a damaged compound file gives an error, not a crash', async () => {
    const doc = Buffer.from(fixtureBytes('report.doc'));
    doc.fill(0xff, 512, 4096);
    const error = await failure('doc', 'damaged.doc', doc);
    expect(error.kind).toBe('malformed');
  });

  it('RTF nested 100,000 groups deep is refused without overflowing the stack', async () => {
    const deep = `{\\rtf1 ${'{'.repeat(100_000)}x${'}'.repeat(100_000)}}`;
    const error = await failure('rtf', 'deep.rtf', Buffer.from(deep));
    expect(error.message).toMatch(/nest deeper/);
  });
});

describe('password-protected packages', () => {
  /** Office writes an encrypted .docx/.xlsx/.pptx as a compound file with these streams. */
  function encryptedPackage(): Uint8Array {
    const cfb = XLSX.CFB.utils.cfb_new();
    XLSX.CFB.utils.cfb_add(cfb, 'EncryptionInfo', new Uint8Array(64).fill(4));
    XLSX.CFB.utils.cfb_add(cfb, 'EncryptedPackage', new Uint8Array(4096).fill(7));
    return XLSX.CFB.write(cfb, { type: 'array' }) as Uint8Array;
  }

  it.each(['docx', 'pptx', 'xlsx'] as const)(
    'an encrypted .%s says it is password-protected',
    async (kind) => {
      const error = await failure(kind, `secret.${kind}`, encryptedPackage());
      expect(error.kind).toBe('encrypted');
      expect(error.message).toMatch(/password-protected/);
    },
  );

  it('a 97–2003 file renamed .docx says to rename it', async () => {
    const error = await failure('docx', 'old.docx', fixtureBytes('report.doc'));
    expect(error.kind).toBe('unsupported');
    expect(error.message).toMatch(/rename it to \.doc/);
  });
});
