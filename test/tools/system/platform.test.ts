import { describe, expect, it } from 'vitest';
import { createSystemTools } from '../../../src/tools/system/index.js';
import { selectPlatform } from '../../../src/tools/system/platform.js';
import type { SystemPlatform } from '../../../src/tools/system/types.js';
import { errorOf, okText, testContext } from '../web/helpers.js';
import { StubRunner } from './stubs.js';

describe('platform selection', () => {
  it.each([
    ['linux', 'Linux'],
    ['darwin', 'macOS'],
    ['win32', 'Windows'],
  ] as const)('picks %s → %s', (platform, label) => {
    expect(selectPlatform(platform, { runner: new StubRunner() })?.label).toBe(label);
  });

  it('has nothing for other systems, and the tools say so', async () => {
    expect(selectPlatform('aix', { runner: new StubRunner() })).toBeUndefined();
    const tools = createSystemTools({ platform: 'aix', runner: new StubRunner() });
    expect(tools.map((tool) => [tool.name, tool.kind])).toEqual([
      ['listApps', 'read'],
      ['openApp', 'process'],
      ['closeApp', 'process'],
      ['listProcesses', 'read'],
    ]);
    for (const tool of tools) {
      const error = errorOf(await tool.run(['x'], testContext()));
      expect(error.kind).toBe('unsupported');
      expect(error.message).toMatch(/Linux, macOS and Windows, not aix/);
    }
  });

  it('accepts a ready implementation', async () => {
    const fake: SystemPlatform = {
      label: 'Linux',
      listApps: async () => [{ name: 'Only', aliases: [], source: 's', processNames: [] }],
      openApp: async () => undefined,
      listProcesses: async () => [],
      closeProcesses: async () => '',
    };
    const [listApps] = createSystemTools({ platform: fake });
    expect(okText(await listApps!.run([], testContext()))).toBe('1 apps:\nOnly');
  });
});
