/**
 * Every Office and table fixture (made with pandoc, LibreOffice and iconv: see
 * test/fixtures/documents/office-src/make.sh) gives the model each phrase of its `.expect`
 * sidecar, the same sidecars the end-to-end test through `cogito -p` reads.
 */
import { describe, expect, it } from 'vitest';
import type { DocumentKind } from '../../src/documents/types.js';
import { expectedPhrases, extractFixture, rendered } from './officeFixture.js';

const FIXTURES: ReadonlyArray<readonly [file: string, kind: DocumentKind]> = [
  ['report.docx', 'docx'],
  ['report.odt', 'odt'],
  ['report.rtf', 'rtf'],
  ['report.doc', 'doc'],
  ['deck.pptx', 'pptx'],
  ['deck.odp', 'odp'],
  ['charts.pptx', 'pptx'],
  ['charts.odp', 'odp'],
  ['budget.xlsx', 'xlsx'],
  ['budget.xls', 'xls'],
  ['budget.ods', 'ods'],
  ['sales.csv', 'csv'],
  ['menu-1252.csv', 'csv'],
  ['staff-sjis.tsv', 'tsv'],
];

describe('Office and table fixtures', () => {
  it.each(FIXTURES)('%s gives every phrase of its .expect file', async (file, kind) => {
    const text = rendered(await extractFixture(kind, file));
    for (const phrase of expectedPhrases(file)) expect(text).toContain(phrase);
  });
});
