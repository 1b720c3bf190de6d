import { describe, expect, it } from 'vitest';
import { extract } from '../../src/documents/ipynb.js';
import {
  allText,
  bytesInput,
  documentError,
  expectedPhrases,
  fixtureInput,
} from './miscFixtures.js';

describe('Jupyter notebooks', () => {
  it('reads markdown cells as Markdown and code cells fenced in the notebook language', async () => {
    const doc = await extract(fixtureInput('tides.ipynb'));
    const shown = allText(doc);
    for (const phrase of expectedPhrases('tides.ipynb')) expect(shown).toContain(phrase);
    expect(doc.meta).toEqual([
      ['Kernel', 'Python 3'],
      ['Language', 'python 3.11.2'],
      ['Cells', '3 code, 1 markdown'],
    ]);
    expect(doc.unitName).toBe('cell');
    expect(doc.units[0]).toEqual({
      number: 1,
      title: 'Cell 1 (markdown)',
      markdown: '# Tide analysis\n\n潮汐数据来自七号验潮站。',
    });
    expect(doc.units[1]!.title).toBe('Cell 2 (code [1])');
    expect(doc.units[1]!.markdown).toMatch(/^```python\nheights = \[3.1, 4.2, 2.8\]\nprint/);
  });

  it('trims long outputs, names images without inlining them, shows errors without colour codes', async () => {
    const doc = await extract(fixtureInput('tides.ipynb'));
    const [, stream, plot, error] = doc.units.map((u) => u.markdown);
    expect(stream).toContain('row 28\n… 171 more lines not shown');
    expect(stream).not.toContain('row 29');
    expect(plot).toContain('[image: image/png output, 3 KB]');
    expect(plot).not.toMatch(/iVBOR|AAAA/);
    expect(error).toContain('Error: ZeroDivisionError: division by zero');
    expect(error).not.toContain('\u001b');
  });

  it('a notebook that is not JSON, or JSON that is not a notebook, gets a clear error', async () => {
    const broken = await documentError(() =>
      extract(bytesInput('broken.ipynb', '{"cells": [ {"cell_type": "code", ')),
    );
    expect(broken.kind).toBe('malformed');
    expect(broken.message).toMatch(
      /^"broken.ipynb" is not a Jupyter notebook: it is not valid JSON \(/,
    );
    const other = await documentError(() => extract(bytesInput('data.ipynb', '{"rows": []}')));
    expect(other.message).toBe(
      '"data.ipynb" is JSON but not a Jupyter notebook: it has no "cells" list.',
    );
    const list = await documentError(() => extract(bytesInput('list.ipynb', '[1, 2]')));
    expect(list.message).toContain('it is not an object');
  });

  it('odd cells (no source, a number for outputs) are read as far as they go, never a crash', async () => {
    const odd = JSON.stringify({ cells: [{ cell_type: 'code', outputs: 5 }, null, { source: 3 }] });
    const doc = await extract(bytesInput('odd.ipynb', odd));
    expect(doc.units.map((u) => u.title)).toEqual([
      'Cell 1 (code)',
      'Cell 2 (unknown)',
      'Cell 3 (unknown)',
    ]);
  });
});
