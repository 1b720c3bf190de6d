import { existsSync } from 'node:fs';
import { cp, mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createSystemTools } from '../../../src/tools/system/index.js';
import type { SystemToolsDeps } from '../../../src/tools/system/index.js';
import { listProcProcesses, xdgDataDirs } from '../../../src/tools/system/linux.js';
import type { Tool } from '../../../src/tools/types.js';
import { errorOf, FIXTURES, jsonWrittenTo, okText, tempDir, testContext } from '../web/helpers.js';
import { hostileNames, recordingKill, StubRunner } from './stubs.js';

let dir: string;
let cleanup: () => Promise<void>;
let env: NodeJS.ProcessEnv;
let procRoot: string;

/** Writes a fake /proc entry. */
async function fakeProc(
  pid: number | string,
  comm: string,
  cmdline: string[],
  rssKb?: number,
): Promise<void> {
  const folder = path.join(procRoot, String(pid));
  await mkdir(folder, { recursive: true });
  await writeFile(path.join(folder, 'comm'), `${comm}\n`);
  await writeFile(
    path.join(folder, 'cmdline'),
    cmdline.length > 0 ? `${cmdline.join('\0')}\0` : '',
  );
  await writeFile(
    path.join(folder, 'status'),
    `Name:\t${comm}\nState:\tS (sleeping)\n${rssKb === undefined ? '' : `VmRSS:\t  ${rssKb} kB\n`}`,
  );
}

function tools(deps: SystemToolsDeps): Record<string, Tool> {
  const list = createSystemTools({
    platform: 'linux',
    env,
    homeDir: path.join(dir, 'nohome'),
    procRoot,
    ...deps,
  });
  return Object.fromEntries(list.map((tool) => [tool.name, tool]));
}

beforeEach(async () => {
  ({ dir, cleanup } = await tempDir('cogito-linux-'));
  await cp(path.join(FIXTURES, 'system/xdg'), path.join(dir, 'xdg'), { recursive: true });
  env = {
    XDG_DATA_HOME: path.join(dir, 'xdg/home'),
    XDG_DATA_DIRS: `${path.join(dir, 'xdg/sys1')}:${path.join(dir, 'xdg/sys2')}`,
    LANG: 'de_DE.UTF-8',
  };
  procRoot = path.join(dir, 'proc');
  await fakeProc(1, 'systemd', ['/sbin/init', 'splash'], 12_000);
  await fakeProc(2, 'kthreadd', []);
  await fakeProc(100, 'firefox', ['/usr/lib/firefox/firefox', '--new-window'], 204_800);
  await fakeProc(101, 'Web Content', ['/usr/lib/firefox/firefox', '-contentproc'], 102_400);
  await fakeProc(200, 'gnome-calculato', ['gnome-calculator'], 40_960);
  await fakeProc(300, 'bash', ['-bash'], 5_000);
  await fakeProc(500, 'node', ['node', 'server.js'], 60_000);
  await fakeProc(process.pid, 'node', ['node', 'vitest'], 90_000);
  await mkdir(path.join(procRoot, 'self'), { recursive: true });
});

afterEach(async () => {
  await cleanup();
});

describe('Linux listApps', () => {
  it('lists visible applications from the XDG dirs with localized aliases', async () => {
    const text = okText(await tools({ runner: new StubRunner() }).listApps!.run([], testContext()));
    expect(text.split('\n')).toEqual([
      '6 apps:',
      'Broken Quote',
      'Calculator (计算器)',
      'Firefox (火狐浏览器, Feuerfuchs)',
      'Htop',
      'My Tool',
      'Okular (Okular 文档查看器)',
    ]);
    // NoDisplay, Type=Link, no Type, the user's Hidden=true override and the shadowed copy are gone.
    expect(text).not.toMatch(/Invisible Helper|Project Website|No Type|Text Editor|shadowed/);
  });

  it('filters by name or alias', async () => {
    const text = okText(
      await tools({ runner: new StubRunner() }).listApps!.run(['计算'], testContext()),
    );
    expect(text).toBe('1 apps matching "计算":\nCalculator (计算器)');
  });

  it('uses the XDG defaults when the variables are unset', () => {
    expect(xdgDataDirs({}, '/home/u')).toEqual([
      '/home/u/.local/share',
      '/usr/local/share',
      '/usr/share',
    ]);
  });
});

describe('Linux openApp', () => {
  it('runs the Exec line as argv with field codes removed', async () => {
    const runner = new StubRunner();
    okText(await tools({ runner }).openApp!.run(['firefox'], testContext()));
    expect(runner.calls).toEqual([{ kind: 'launch', file: 'firefox', args: [] }]);
  });

  it('finds an app by its zh_CN name and keeps quoted arguments whole', async () => {
    const runner = new StubRunner();
    expect(okText(await tools({ runner }).openApp!.run(['火狐浏览器'], testContext()))).toBe(
      'Started Firefox.',
    );
    okText(await tools({ runner }).openApp!.run(['MY TOOL'], testContext()));
    expect(runner.calls[1]).toEqual({
      kind: 'launch',
      file: '/opt/My Tool/bin/my-tool',
      args: ['--title', 'Hello "World"', '--cost', '$5', '--tab', 'name', '--name=', '%done'],
    });
  });

  it('opens an app in a vendor subfolder', async () => {
    const runner = new StubRunner();
    okText(await tools({ runner }).openApp!.run(['okular'], testContext()));
    expect(runner.calls[0]?.file).toBe('okular');
  });

  it('names near matches for an unknown app', async () => {
    const error = errorOf(
      await tools({ runner: new StubRunner() }).openApp!.run(['Firefx'], testContext()),
    );
    expect(error.kind).toBe('not_found');
    expect(error.message).toBe('No installed app is called "Firefx". Did you mean: Firefox?');
  });

  it('refuses terminal programs and broken Exec lines with a reason', async () => {
    const runner = new StubRunner();
    expect(errorOf(await tools({ runner }).openApp!.run(['htop'], testContext())).message).toMatch(
      /terminal program/,
    );
    const broken = errorOf(await tools({ runner }).openApp!.run(['Broken Quote'], testContext()));
    expect(broken.kind).toBe('io');
    expect(broken.message).toMatch(/broken Exec line/);
    expect(runner.calls).toHaveLength(0);
  });

  it('runs nothing for hostile names', async () => {
    const marker = path.join(dir, 'marker');
    const runner = new StubRunner();
    for (const name of hostileNames(marker)) {
      const error = errorOf(await tools({ runner }).openApp!.run([name], testContext()));
      expect(error.kind === 'not_found' || error.kind === 'invalid_args').toBe(true);
    }
    expect(runner.calls).toHaveLength(0);
    expect(existsSync(marker)).toBe(false);
  });

  it('launches for real through execa without a shell: shell syntax in Name and Exec stays literal', async () => {
    const marker = path.join(dir, 'marker');
    const out = path.join(dir, 'argv.json');
    const script =
      "require('fs').writeFileSync(process.argv[1], JSON.stringify(process.argv.slice(2)))";
    const name = `Evil"; touch ${marker}; " App`;
    // Inside Exec quotes `$`, backtick, `"` and `\` are escaped with `\`, itself doubled by the string escape.
    await writeFile(
      path.join(dir, 'xdg/home/applications/evil.desktop'),
      [
        '[Desktop Entry]',
        'Type=Application',
        `Name=${name}`,
        `Exec="${process.execPath}" -e "${script}" "${out}" "\\\\$(touch ${marker})" "\\\\\`touch ${marker}\\\\\`" "; touch ${marker}; " "a&touch ${marker}" %U`,
      ].join('\n'),
    );
    const result = await tools({}).openApp!.run([name], testContext());
    expect(okText(result)).toBe(`Started ${name}.`);
    expect(await jsonWrittenTo(out, 'the launched stub to write its file')).toEqual([
      `$(touch ${marker})`,
      `\`touch ${marker}\``,
      `; touch ${marker}; `,
      `a&touch ${marker}`,
    ]);
    expect(existsSync(marker)).toBe(false);
  });
});

describe('Linux processes', () => {
  it('reads /proc: full names past the 15-character comm, no kernel threads', async () => {
    const processes = await listProcProcesses(procRoot);
    expect(processes.map((entry) => [entry.pid, entry.name, entry.memoryKb])).toEqual(
      [
        [1, 'systemd', 12_000],
        [100, 'firefox', 204_800],
        [101, 'Web Content', 102_400],
        [200, 'gnome-calculator', 40_960],
        [300, 'bash', 5_000],
        [500, 'node', 60_000],
        [process.pid, 'node', 90_000],
      ].sort((a, b) => (a[0] as number) - (b[0] as number)),
    );
    expect(processes.find((entry) => entry.pid === 100)?.command).toBe(
      '/usr/lib/firefox/firefox --new-window',
    );
  });

  it('renders listProcesses largest first', async () => {
    const text = okText(
      await tools({ runner: new StubRunner() }).listProcesses!.run(['fire'], testContext()),
    );
    expect(text.split('\n')).toEqual([
      '1 process matching "fire":',
      '    PID    MEMORY  NAME',
      '    100    200 MB  firefox',
    ]);
  });

  it.runIf(process.platform === 'linux')(
    'reads the real /proc and finds this process',
    async () => {
      const processes = await listProcProcesses('/proc');
      expect(processes.find((entry) => entry.pid === process.pid)?.name).toMatch(/node/);
    },
  );
});

describe('Linux closeApp', () => {
  it('sends SIGTERM to the processes of an app found by name or alias', async () => {
    const kill = recordingKill();
    const text = okText(
      await tools({ runner: new StubRunner(), kill }).closeApp!.run(['火狐浏览器'], testContext()),
    );
    expect(kill.calls).toEqual([[100, 'SIGTERM']]);
    expect(text).toBe('Asked Firefox to close. Sent SIGTERM to pid 100.');
  });

  it('matches an exact process name, never this process', async () => {
    const kill = recordingKill();
    okText(await tools({ runner: new StubRunner(), kill }).closeApp!.run(['NODE'], testContext()));
    expect(kill.calls).toEqual([[500, 'SIGTERM']]);
  });

  it('matches the full name of a process whose comm was cut', async () => {
    const kill = recordingKill();
    okText(
      await tools({ runner: new StubRunner(), kill }).closeApp!.run(['Calculator'], testContext()),
    );
    expect(kill.calls).toEqual([[200, 'SIGTERM']]);
  });

  it('refuses system processes', async () => {
    const kill = recordingKill();
    const error = errorOf(
      await tools({ runner: new StubRunner(), kill }).closeApp!.run(['systemd'], testContext()),
    );
    expect(error.kind).toBe('denied');
    expect(kill.calls).toHaveLength(0);
  });

  it('names running near matches when nothing matches exactly', async () => {
    const kill = recordingKill();
    const error = errorOf(
      await tools({ runner: new StubRunner(), kill }).closeApp!.run(['firefx'], testContext()),
    );
    expect(error.message).toBe(
      'No running process is called "firefx". Running with similar names: firefox.',
    );
    expect(kill.calls).toHaveLength(0);
  });

  it('reports a process that belongs to another user', async () => {
    const kill = recordingKill({ 100: 'EPERM' });
    const error = errorOf(
      await tools({ runner: new StubRunner(), kill }).closeApp!.run(['firefox'], testContext()),
    );
    expect(error.kind).toBe('denied');
  });

  it('signals nothing for hostile names', async () => {
    const kill = recordingKill();
    const marker = path.join(dir, 'marker');
    for (const name of hostileNames(marker)) {
      expect(
        errorOf(
          await tools({ runner: new StubRunner(), kill }).closeApp!.run([name], testContext()),
        ).kind,
      ).toBe('not_found');
    }
    expect(kill.calls).toHaveLength(0);
    expect(existsSync(marker)).toBe(false);
  });
});
