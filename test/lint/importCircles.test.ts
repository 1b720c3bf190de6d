/**
 * No file import circle in src/ or components/ (issue 39, item 6): a file that needs another's
 * names and is needed back is one idea cut in two. The same count as
 * `node /work/shared/tools/file-cycles.mjs . src components`, self-contained for CI.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { fileCircles } from '../helpers/fileCircles.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');


let tmp: string | undefined;
afterEach(() => {
  if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
  tmp = undefined;
});

function tree(files: Record<string, string>): string {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'cogito-circles-'));
  for (const [name, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(tmp, name)), { recursive: true });
    fs.writeFileSync(path.join(tmp, name), text);
  }
  return tmp;
}

describe('file import circles', () => {
  it('finds each circle, type imports, re-exports, dynamic imports and index files included', () => {
    const root = tree({
      'src/a.ts': "import { b } from './b.js';\nexport const a = b;\n",
      'src/b.ts': "import type { A } from './a.js';\nexport const b = 1;\n",
      'src/c.ts': "import { a } from './a.js';\nexport * from './self/index.js';\n",
      'src/self/index.ts': "export const s = 1;\nexport { s as t } from './index.js';\n",
      'src/d.tsx': "export const d = () => import('./e/index.js');\n",
      'src/e/index.ts': "export { d } from '../d.js';\n",
      'src/f.ts': "import { g } from 'node:path';\nexport { g };\n",
      'components/x.tsx': "export { y } from './y.js';\n",
      'components/y.ts': "export { x } from './x.js';\n",
    });
    const sets = fileCircles(root, ['src', 'components', 'missing']).map((s) => [...s].sort());
    expect(sets.sort((p, q) => p[0]!.localeCompare(q[0]!))).toEqual([
      ['components/x.tsx', 'components/y.ts'],
      ['src/a.ts', 'src/b.ts'],
      ['src/d.tsx', 'src/e/index.ts'],
    ]);
  });

  it('src and components hold none', () => {
    expect(fileCircles(ROOT, ['src', 'components'])).toEqual([]);
  });

});
