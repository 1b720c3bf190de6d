/**
 * The folders under src/ are layers, and lint holds them: an import from a lower folder into
 * a higher one (type imports too) is a lint error, the allowed imports written in
 * eslint.config.js form no cycle, and the real tree has no folder cycle.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import { beforeAll, describe, expect, it } from 'vitest';
import { findCycle, folderGraph, sourceFiles } from '../helpers/folderGraph.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const SRC = path.join(ROOT, 'src');
const RULE = 'boundaries/dependencies';
// Loading the config (typescript-eslint, the plugin) takes seconds on a busy machine.
const SLOW = 60_000;

interface Policy {
  from: { element: { type: string } };
  allow: { to: { element: { types: { anyOf: string[] } } } };
}

let eslint: ESLint;
beforeAll(() => {
  eslint = new ESLint({ cwd: ROOT });
});

async function layerErrors(file: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: path.join(ROOT, file) });
  return (result?.messages ?? []).filter((m) => m.ruleId === RULE).map((m) => m.message);
}

/** The allow lists as the project's ESLint config gives them: folder → folders it may import. */
async function allowLists(): Promise<Map<string, string[]>> {
  const config = (await eslint.calculateConfigForFile(path.join(SRC, 'core/messages.ts'))) as {
    rules: Record<string, [unknown, { default: string; policies: Policy[] }]>;
  };
  const [, options] = config.rules[RULE]!;
  expect(options.default).toBe('disallow');
  return new Map(
    options.policies.map((p) => [
      p.from.element.type,
      p.allow.to.element.types.anyOf.filter((t) => t !== p.from.element.type),
    ]),
  );
}

describe('the layer rule', () => {
  it(
    'fails an import from a lower folder into a higher one, type imports included',
    async () => {
      const valueImport = "import { Agent } from '../agent/agent.js';\nexport const a = Agent;\n";
      expect(await layerErrors('src/core/probe.ts', valueImport)).toEqual([
        expect.stringMatching(/"core".*"agent"/),
      ]);
      const typeImport =
        "import type { Agent } from '../../agent/agent.js';\nexport type A = Agent;\n";
      expect(await layerErrors('src/tools/web/probe.ts', typeImport)).toEqual([
        expect.stringMatching(/"tools".*"agent"/),
      ]);
      const reExport = "export type { TurnTrace } from '../api/trace.js';\n";
      expect(await layerErrors('src/config/probe.ts', reExport)).toEqual([
        expect.stringMatching(/"config".*"api"/),
      ]);
    },
    SLOW,
  );

  it(
    'lets a folder import a lower one and its own files',
    async () => {
      const legal =
        "import type { HistoryMessage } from '../core/messages.js';\n" +
        "import type { AgentEvent } from '../api/events.js';\n" +
        "import { Agent } from './agent.js';\n" +
        'export const a: [HistoryMessage?, AgentEvent?, typeof Agent?] = [];\n';
      expect(await layerErrors('src/agent/probe.ts', legal)).toEqual([]);
    },
    SLOW,
  );

  it(
    'the allowed imports form no cycle, and every folder under src/ has a row',
    async () => {
      const lists = await allowLists();
      expect(findCycle(lists)).toBeUndefined();
      const folders = fs
        .readdirSync(SRC, { withFileTypes: true })
        .filter((e) => e.isDirectory() && sourceFiles(path.join(SRC, e.name)).length > 0)
        .map((e) => e.name);
      expect(folders.filter((f) => !lists.has(f))).toEqual([]);
      // The screen sits above the whole core; the core never names it.
      for (const [from, to] of lists)
        if (folders.includes(from)) expect(to).not.toContain('components');
    },
    SLOW,
  );
});

describe('the source tree', () => {
  it('has no cycle between the folders under src/', () => {
    const graph = folderGraph(SRC);
    const edges = new Map([...graph].map(([from, to]) => [from, [...to.keys()]]));
    const cycle = findCycle(edges);
    const why = cycle?.slice(1).map((to, i) => `${graph.get(cycle[i]!)?.get(to)} → ${to}`);
    expect(why).toBeUndefined();
  });

  it('finds a cycle when there is one (the check can fail)', () => {
    const edges = new Map([
      ['a', ['b']],
      ['b', ['c']],
      ['c', ['a']],
      ['d', ['a']],
    ]);
    expect(findCycle(edges)).toEqual(['a', 'b', 'c', 'a']);
    expect(
      findCycle(
        new Map([
          ['a', ['b']],
          ['b', []],
        ]),
      ),
    ).toBeUndefined();
  });
});
