import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '../..');

async function sourceFiles(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...(await sourceFiles(full)));
    else if (/\.tsx?$/.test(entry.name)) out.push(full);
  }
  return out;
}

describe('the headless core', () => {
  it('the lint rule rejects React, Ink and components/ imports under src/', async () => {
    const eslint = new ESLint({ cwd: ROOT });
    const cases = [
      "import React from 'react';\nexport const x = React;\n",
      "import { Box } from 'ink';\nexport const x = Box;\n",
      "import { App } from '../components/App.js';\nexport const x = App;\n",
      "import TextInput from 'ink-text-input';\nexport const x = TextInput;\n",
    ];
    for (const code of cases) {
      const [result] = await eslint.lintText(code, {
        filePath: path.join(ROOT, 'src/agent/probe.ts'),
      });
      const rules = result!.messages.map((m) => m.ruleId);
      expect(rules, code).toContain('no-restricted-imports');
    }
    // The same imports are fine in components/.
    const [ui] = await eslint.lintText(cases[0]!, {
      filePath: path.join(ROOT, 'components/probe.tsx'),
    });
    expect(ui!.messages.map((m) => m.ruleId)).not.toContain('no-restricted-imports');
  });

  it('no file under src/ imports the UI', async () => {
    const offenders: string[] = [];
    for (const file of await sourceFiles(path.join(ROOT, 'src'))) {
      const text = await readFile(file, 'utf8');
      if (/from ['"](react|ink|ink-[\w-]+)['"]|from ['"][./]+\/components\//.test(text))
        offenders.push(file);
    }
    expect(offenders).toEqual([]);
  });
});
