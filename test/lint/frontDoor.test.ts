/**
 * One front door: the hosts (daemon, app, cli, the screen) drive the agent by its API only,
 * commands in (`send`), events (`subscribe`) and the snapshot out. No file outside src/agent
 * reads the agent's parts, and the Agent's type does not offer them.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { Agent } from '../../src/agent/agent.js';
import { sourceFiles } from '../helpers/folderGraph.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const PARTS = ['alwaysOn', 'settings', 'provider', 'safety', 'registry', 'history'] as const;
const PART = PARTS.join('|');

/** `agent.settings`, `app.agent?.provider`, `agent['history']`. */
const MEMBER = new RegExp(
  `\\bagent\\s*\\??\\.\\s*(${PART})\\b|\\bagent\\s*\\[\\s*['"](${PART})['"]`,
  'g',
);
/** `const { alwaysOn, store } = agent` (or `= app.agent`). */
const DESTRUCTURE = new RegExp(`\\{([^{}]*)\\}\\s*=\\s*(?:[\\w$]+\\s*\\.\\s*)*agent\\b`, 'g');

/** Each place a text reads one of the agent's parts: `line: what`. */
function partReads(text: string): string[] {
  const found: string[] = [];
  const lineOf = (index: number): number => text.slice(0, index).split('\n').length;
  for (const m of text.matchAll(MEMBER)) found.push(`${lineOf(m.index)}: ${m[1] ?? m[2]}`);
  for (const m of text.matchAll(DESTRUCTURE)) {
    const names = m[1]!.split(',').map((n) => n.split(':')[0]!.trim());
    for (const name of names)
      if ((PARTS as readonly string[]).includes(name)) found.push(`${lineOf(m.index)}: ${name}`);
  }
  return found;
}

/** Every source file of the hosts and the screen: src/ outside src/agent, components/, bin/. */
function hostFiles(): string[] {
  const agentDir = path.join(ROOT, 'src', 'agent') + path.sep;
  return ['src', 'components', 'bin']
    .flatMap((dir) => sourceFiles(path.join(ROOT, dir)))
    .filter((file) => !file.startsWith(agentDir));
}

describe('the front door', () => {
  it('finds a read of an agent part in the shapes code takes', () => {
    expect(partReads('tokensToday: agent.alwaysOn.budget.used(DAY_MS),')).toEqual(['1: alwaysOn']);
    expect(partReads('x\nmodel: app.agent?.provider.model')).toEqual(['2: provider']);
    expect(partReads("const h = agent['history'];")).toEqual(['1: history']);
    expect(partReads('const { store, settings: s } = app.agent;')).toEqual(['1: settings']);
    expect(
      partReads('agent.send(c); agent.snapshot(); verbs.settings(); agentSettings(x)'),
    ).toEqual([]);
  });

  it('no file outside src/agent reads the agent’s settings, pacing, provider, safety, tools or history', () => {
    const reads = hostFiles().flatMap((file) =>
      partReads(fs.readFileSync(file, 'utf8')).map((r) => `${path.relative(ROOT, file)}:${r}`),
    );
    expect(reads).toEqual([]);
  });

  it('the Agent’s type does not offer its parts (the typecheck holds these lines)', () => {
    const probe = (agent: Agent): unknown[] => [
      // @ts-expect-error the settings are private: the snapshot and events carry what shows
      agent.settings,
      // @ts-expect-error private
      agent.alwaysOn,
      // @ts-expect-error private
      agent.safety,
      // @ts-expect-error not a member: the model shows in the snapshot
      agent.provider,
      // @ts-expect-error not a member
      agent.registry,
      // @ts-expect-error not a member
      agent.history,
    ];
    expect(typeof probe).toBe('function');
  });
});
