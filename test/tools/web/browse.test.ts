import { existsSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createCommandRunner } from '../../../src/tools/system/exec.js';
import type { ExecaLike } from '../../../src/tools/system/exec.js';
import { createWebTools } from '../../../src/tools/web/index.js';
import type { WebToolsDeps } from '../../../src/tools/web/index.js';
import type { Tool } from '../../../src/tools/types.js';
import { errorOf, jsonWrittenTo, okText, tempDir, testContext } from './helpers.js';

interface Call {
  file: string;
  args: readonly string[];
  options: Record<string, unknown>;
}

/** An execa stand-in that records argv and "runs" nothing. */
function recordingExeca(calls: Call[]): ExecaLike {
  return (file, args, options) => {
    calls.push({ file, args, options: options as Record<string, unknown> });
    return Object.assign(Promise.resolve({ exitCode: 0, failed: false, stdout: '', stderr: '' }), {
      pid: 4242,
      unref() {},
    });
  };
}

function browseTool(deps: WebToolsDeps): Tool {
  return createWebTools({}, deps).find((tool) => tool.name === 'browse')!;
}

let dir: string;
let cleanup: () => Promise<void>;
let marker: string;

beforeEach(async () => {
  ({ dir, cleanup } = await tempDir('cogito-browse-'));
  marker = path.join(dir, 'marker');
});

afterEach(async () => {
  await cleanup();
});

/** URLs carrying shell syntax that would create the marker if any shell saw them. */
function hostileUrls(): string[] {
  return [
    `https://example.com/"; touch ${marker}; "`,
    `https://example.com/$(touch ${marker})`,
    `https://example.com/\`touch ${marker}\``,
    `https://example.com/a&touch ${marker}`,
    // In a query string $, {, }, ;, &, | and backticks survive URL serialisation unescaped.
    `https://example.com/?q=x;touch\${IFS}${marker};&b=$(touch\${IFS}${marker})&c=\`touch\${IFS}${marker}\`|touch\${IFS}${marker}`,
  ];
}

describe('browse: argv only, never a shell', () => {
  it.each([
    ['linux', 'xdg-open', (url: string) => [url]],
    ['darwin', 'open', (url: string) => [url]],
    ['win32', 'rundll32', (url: string) => ['url.dll,FileProtocolHandler', url]],
  ] as const)(
    'on %s passes the URL as one literal argument to %s',
    async (platform, opener, expectedArgs) => {
      for (const url of hostileUrls()) {
        const calls: Call[] = [];
        const tool = browseTool({ platform, runner: createCommandRunner(recordingExeca(calls)) });
        okText(await tool.run([url], testContext()));
        expect(calls).toHaveLength(1);
        const href = new URL(url).href;
        expect(calls[0]?.file).toBe(opener);
        expect(calls[0]?.args).toEqual(expectedArgs(href));
        expect(calls[0]?.options.shell).toBeUndefined();
      }
      expect(existsSync(marker)).toBe(false);
    },
  );

  it('runs a real opener through execa and the URL arrives byte for byte', async () => {
    const out = path.join(dir, 'argv.json');
    const script =
      "require('fs').writeFileSync(process.argv[1], JSON.stringify(process.argv.slice(2)))";
    const tool = browseTool({
      platform: 'linux',
      browserCommand: (url) => ({ file: process.execPath, args: ['-e', script, out, url] }),
    });
    const hostile = hostileUrls()[4]!;
    const text = okText(await tool.run([hostile], testContext()));
    expect(text).toBe(`Opened ${new URL(hostile).href} in the system browser.`);
    const argv = (await jsonWrittenTo(out, 'the browser stub to write its file')) as string[];
    expect(argv).toEqual([new URL(hostile).href]);
    expect(argv[0]).toContain(`$(touch\${IFS}${marker})`);
    expect(existsSync(marker)).toBe(false);
  });

  it.each(['file:///etc/passwd', 'javascript:alert(1)', 'data:text/html,hi', 'ftp://example.com/'])(
    'refuses %s and runs nothing',
    async (url) => {
      const calls: Call[] = [];
      const error = errorOf(
        await browseTool({
          platform: 'linux',
          runner: createCommandRunner(recordingExeca(calls)),
        }).run([url], testContext()),
      );
      expect(error.kind).toBe('invalid_args');
      expect(calls).toHaveLength(0);
    },
  );
});

describe('browse: failures', () => {
  it('reports an opener that fails at once', async () => {
    const tool = browseTool({
      platform: 'linux',
      browserCommand: () => ({ file: process.execPath, args: ['-e', 'process.exit(3)'] }),
    });
    const error = errorOf(await tool.run(['https://example.com/'], testContext()));
    expect(error.kind).toBe('io');
    expect(error.message).toMatch(/Could not open the browser.*exit code 3/);
  });

  it('reports a missing opener', async () => {
    const tool = browseTool({
      platform: 'linux',
      browserCommand: () => ({ file: 'cogito-no-such-opener', args: [] }),
    });
    const error = errorOf(await tool.run(['https://example.com/'], testContext()));
    expect(error.kind).toBe('unsupported');
    expect(error.message).toContain('cogito-no-such-opener');
  });
});
