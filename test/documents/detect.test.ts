/**
 * A file's kind from its bytes: real Office, OpenDocument and EPUB files (made by pandoc and
 * LibreOffice) renamed `.bin`, so only their content can tell; then names and text sniffing.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { detectKind, kindFromName } from '../../src/documents/detect.js';

const DIR = path.resolve(import.meta.dirname, '../fixtures/detect');
const kindOf = async (file: string, name = 'upload.bin'): Promise<string | undefined> =>
  detectKind(await readFile(path.join(DIR, file)), name).kind;

describe('detectKind', () => {
  it.each([
    ['docx.bin', 'docx'],
    ['xlsx.bin', 'xlsx'],
    ['pptx.bin', 'pptx'],
    ['odt.bin', 'odt'],
    ['ods.bin', 'ods'],
    ['odp.bin', 'odp'],
    ['epub.bin', 'epub'],
    ['doc.bin', 'doc'],
    ['xls.bin', 'xls'],
    ['png.bin', 'image'],
  ])('tells %s is %s from its content alone', async (file, kind) => {
    expect(await kindOf(file)).toBe(kind);
  });

  it('reads magic numbers before names: a PDF named .txt is a PDF', () => {
    expect(detectKind(Buffer.from('%PDF-1.7\n1 0 obj'), 'notes.txt').kind).toBe('pdf');
    expect(detectKind(Buffer.from('{\\rtf1\\ansi hello}'), 'x').kind).toBe('rtf');
    expect(detectKind(Buffer.from([0x1f, 0x8b, 8, 0]), 'x').kind).toBe('gzip');
    const tar = Buffer.alloc(512);
    tar.write('ustar', 257);
    expect(detectKind(tar, 'x').kind).toBe('tar');
    const heic = Buffer.from('\0\0\0\x18ftypheic\0\0\0\0mif1heic', 'latin1');
    expect(detectKind(heic, 'x').kind).toBe('image');
    expect(detectKind(Buffer.from('\0\0\0\x18ftypisom\0\0\0\0', 'latin1'), 'x').kind).toBe('video');
    expect(detectKind(Buffer.from('ID3\x04\0\0\0\0\0\0', 'latin1'), 'x').kind).toBe('audio');
  });

  it('sniffs text kinds: HTML, feeds, notebooks, e-mail; names csv/tsv', () => {
    const t = (s: string, name = 'x'): string | undefined => detectKind(Buffer.from(s), name).kind;
    expect(t('<!DOCTYPE html><html><body>hi</body></html>')).toBe('html');
    expect(t('<?xml version="1.0"?>\n<rss version="2.0"><channel/></rss>')).toBe('feed');
    expect(t('<feed xmlns="http://www.w3.org/2005/Atom"></feed>')).toBe('feed');
    expect(t('{"cells": [], "metadata": {}, "nbformat": 4, "nbformat_minor": 5}')).toBe('ipynb');
    expect(
      t('From: a@b.c\nTo: d@e.f\nSubject: hi\nDate: Mon, 1 Jan 2024 00:00:00 +0000\n\nbody'),
    ).toBe('eml');
    expect(t('a,b\n1,2\n', 'table.csv')).toBe('csv');
    expect(t('a\tb\n1\t2\n', 'table.tsv')).toBe('tsv');
    expect(t('just some notes\nFrom: nobody in particular\n')).toBe('text');
  });

  it('calls unknown binary data undefined, naming what it is', () => {
    expect(detectKind(Buffer.from([0x7f, 0x45, 0x4c, 0x46, 2, 1]), 'tool')).toEqual({
      kind: undefined,
      type: 'ELF executable',
    });
  });

  it('maps extensions', () => {
    expect(kindFromName('a/B.PDF')).toBe('pdf');
    expect(kindFromName('photo.HEIC')).toBe('image');
    expect(kindFromName('backup.tgz')).toBe('gzip');
    expect(kindFromName('notes.md')).toBeUndefined();
  });
});
