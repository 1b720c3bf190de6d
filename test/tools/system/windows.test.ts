import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseCsv } from '../../../src/tools/system/csv.js';
import { createSystemTools } from '../../../src/tools/system/index.js';
import {
  exeFromDisplayIcon,
  LIST_APPS_SCRIPT,
  OPEN_APP_SCRIPT,
  parseTasklistCsv,
  parseUninstallJson,
} from '../../../src/tools/system/windows.js';
import type { Tool } from '../../../src/tools/types.js';
import { errorOf, FIXTURES, okText, testContext } from '../web/helpers.js';
import { hostileNames, StubRunner } from './stubs.js';

const fixture = (name: string): Promise<string> =>
  readFile(path.join(FIXTURES, 'system', name), 'utf8');

async function windowsTools(
  outputs: ConstructorParameters<typeof StubRunner>[0] = {},
): Promise<{ runner: StubRunner; tools: Record<string, Tool> }> {
  const runner = new StubRunner({
    'powershell.exe': { stdout: await fixture('windows-uninstall.json') },
    tasklist: { stdout: await fixture('windows-tasklist.csv') },
    ...outputs,
  });
  const list = createSystemTools({ platform: 'win32', runner });
  return { runner, tools: Object.fromEntries(list.map((tool) => [tool.name, tool])) };
}

/** The script behind `-EncodedCommand`. */
function decodedScript(args: readonly string[]): string {
  const encoded = args[args.indexOf('-EncodedCommand') + 1] ?? '';
  return Buffer.from(encoded, 'base64').toString('utf16le');
}

describe('Windows parsers', () => {
  it('reads uninstall entries, skipping system components, updates, duplicates and blanks', async () => {
    const apps = parseUninstallJson(await fixture('windows-uninstall.json'));
    expect(apps.map((app) => [app.name, app.target, app.processNames])).toEqual([
      ['Google Chrome', 'C:\\Program Files\\Google\\Chrome\\Application\\chrome.exe', ['chrome']],
      ['7-Zip 23.01 (x64)', 'C:\\Program Files\\7-Zip\\7zFM.exe', ['7zFM']],
      ['Notepad++ (64-bit x64)', 'C:\\Program Files\\Notepad++\\notepad++.exe', ['notepad++']],
      ['微信', 'C:\\Program Files\\Tencent\\WeChat\\WeChat.exe', ['WeChat']],
      ['Foo Viewer', undefined, []],
    ]);
    expect(apps[3]?.source).toBe(
      'HKEY_CURRENT_USER\\Software\\Microsoft\\Windows\\CurrentVersion\\Uninstall\\WeChat',
    );
  });

  it('accepts the single-object and empty forms of ConvertTo-Json', () => {
    expect(
      parseUninstallJson('{"DisplayName":"Solo","DisplayIcon":"C:\\\\solo.exe"}').map(
        (app) => app.name,
      ),
    ).toEqual(['Solo']);
    expect(parseUninstallJson('  \r\n')).toEqual([]);
    expect(() => parseUninstallJson('Get-ItemProperty : error')).toThrow(/unreadable app data/);
  });

  it.each([
    ['"C:\\Program Files\\A\\a.exe",0', 'C:\\Program Files\\A\\a.exe'],
    ['C:\\B\\b.exe,-101', 'C:\\B\\b.exe'],
    ['C:\\B\\b.ico', undefined],
    ['C:\\B\\Uninstall.exe', undefined],
    [null, undefined],
  ])('takes the program from DisplayIcon %s', (icon, expected) => {
    expect(exeFromDisplayIcon(icon)).toBe(expected);
  });

  it('parses tasklist CSV with quoted commas, doubled quotes and locale digit grouping', async () => {
    const processes = parseTasklistCsv(await fixture('windows-tasklist.csv'));
    expect(processes).toHaveLength(7);
    expect(processes[2]).toEqual({ pid: 1234, name: 'chrome.exe', memoryKb: 312_456 });
    expect(processes[5]).toEqual({ pid: 5555, name: 'Code, "Helper".exe', memoryKb: 1024 });
    expect(
      parseTasklistCsv('INFO: No tasks are running which match the specified criteria.\r\n'),
    ).toEqual([]);
  });

  it('parses CSV edge cases', () => {
    expect(parseCsv('a,"b,c",,"d""e"\n\n"x"\r\n')).toEqual([['a', 'b,c', '', 'd"e'], ['x']]);
  });
});

describe('Windows tools', () => {
  it('reads the three uninstall keys through an encoded PowerShell script', async () => {
    const { runner, tools } = await windowsTools();
    const text = okText(await tools.listApps!.run([], testContext()));
    expect(text.split('\n')[0]).toBe('5 apps:');
    expect(runner.calls[0]?.file).toBe('powershell.exe');
    expect(runner.calls[0]?.args.slice(0, 2)).toEqual(['-NoProfile', '-NonInteractive']);
    const script = decodedScript(runner.calls[0]!.args);
    expect(script).toBe(LIST_APPS_SCRIPT);
    expect(script).toContain(
      'HKLM:\\Software\\WOW6432Node\\Microsoft\\Windows\\CurrentVersion\\Uninstall\\*',
    );
    expect(script).toContain('HKCU:\\Software\\Microsoft\\Windows\\CurrentVersion\\Uninstall\\*');
    expect(script).toContain('ConvertTo-Json');
  });

  it('starts an app with Start-Process, the path passed outside the script', async () => {
    const { runner, tools } = await windowsTools();
    okText(await tools.openApp!.run(['google chrome'], testContext()));
    const call = runner.calls[1]!;
    expect(call.file).toBe('powershell.exe');
    expect(decodedScript(call.args)).toBe(OPEN_APP_SCRIPT);
    expect(call.env).toEqual({
      COGITO_APP_PATH: 'C:\\Program Files\\Google\\Chrome\\Application\\chrome.exe',
    });
    expect(call.args.join(' ')).not.toContain('chrome.exe');
  });

  it('explains an app without a known program file', async () => {
    const { tools } = await windowsTools();
    const error = errorOf(await tools.openApp!.run(['Foo Viewer'], testContext()));
    expect(error.kind).toBe('unsupported');
    expect(error.message).toMatch(/Start menu/);
  });

  it('closes by image name with taskkill /IM, once per name', async () => {
    const { runner, tools } = await windowsTools();
    const text = okText(await tools.closeApp!.run(['Google Chrome'], testContext()));
    expect(runner.calls.filter((call) => call.file === 'taskkill')).toEqual([
      { kind: 'run', file: 'taskkill', args: ['/IM', 'chrome.exe'] },
    ]);
    expect(text).toBe('Asked Google Chrome to close. Asked chrome.exe to close.');
  });

  it('reports taskkill refusing', async () => {
    const { tools } = await windowsTools({
      taskkill: {
        exitCode: 1,
        stdout: 'ERROR: The process "notepad++.exe" could not be terminated.',
      },
    });
    const error = errorOf(await tools.closeApp!.run(['notepad++.exe'], testContext()));
    expect(error.kind).toBe('io');
    expect(error.message).toContain('could not be terminated');
  });

  it('refuses explorer.exe and runs nothing for hostile names or wildcards', async () => {
    const { runner, tools } = await windowsTools();
    expect(errorOf(await tools.closeApp!.run(['explorer.exe'], testContext())).kind).toBe('denied');
    for (const name of [...hostileNames('C:\\marker'), '*', 'chrome*', '*.exe']) {
      expect(errorOf(await tools.closeApp!.run([name], testContext())).kind).toBe('not_found');
      expect(errorOf(await tools.openApp!.run([name], testContext())).kind).toMatch(
        /not_found|invalid_args/,
      );
    }
    expect(
      runner.calls.filter((call) => call.file === 'taskkill' || call.env !== undefined),
    ).toHaveLength(0);
  });
});
