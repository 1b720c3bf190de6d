/**
 * The reply is read once, by the turn, as it streams: the store and the screen draw the parts
 * the events carry. So nothing under src/store or components/ imports the reply's reader or
 * parser (src/protocol), directly or through a file of its own folder that does, type imports
 * included.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { sourceFiles } from '../helpers/folderGraph.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const PROTOCOL = path.join(ROOT, 'src', 'protocol');
const IMPORT =
  /(?:import|export)\s[^'"]*?from\s*['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g;

/** The files a source file imports by relative path, resolved (`.js` written for `.ts`). */
function importsOf(file: string): string[] {
  const out: string[] = [];
  for (const m of fs.readFileSync(file, 'utf8').matchAll(IMPORT)) {
    const spec = m[1] ?? m[2] ?? '';
    if (spec.startsWith('.')) out.push(path.resolve(path.dirname(file), spec));
  }
  return out;
}

/** Files under `dirs` that import from src/protocol: `file → the import`. */
function protocolImports(dirs: readonly string[]): string[] {
  const found: string[] = [];
  for (const dir of dirs)
    for (const file of sourceFiles(path.resolve(ROOT, dir)))
      for (const target of importsOf(file))
        if (target.startsWith(PROTOCOL + path.sep))
          found.push(`${path.relative(ROOT, file)} → ${path.relative(ROOT, target)}`);
  return found;
}

describe('the reply is read once', () => {
  it('nothing under src/store or components/ imports the reply parser or its reader', () => {
    expect(protocolImports(['src/store', 'components'])).toEqual([]);
  });

  it('the check sees such an import, a type import too', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'read-once-'));
    try {
      const spec = path.relative(dir, PROTOCOL);
      fs.writeFileSync(
        path.join(dir, 'probe.ts'),
        `import type { PartsUpdate } from '../x.js';\nimport type { ParsedReply } from '${spec}/types.js';\n`,
      );
      expect(protocolImports([dir])).toEqual([expect.stringMatching(/src\/protocol\/types\.js$/)]);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
