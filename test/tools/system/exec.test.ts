import { existsSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ToolFailure } from '../../../src/tools/web/errors.js';
import { createCommandRunner } from '../../../src/tools/system/exec.js';
import { tempDir } from '../web/helpers.js';
import { waitUntil } from '../../helpers/waitFor.js';

const runner = createCommandRunner();
const signal = (): AbortSignal => new AbortController().signal;

async function failureOf(promise: Promise<unknown>): Promise<ToolFailure> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof ToolFailure) return error;
    throw error;
  }
  throw new Error('expected a ToolFailure');
}

let dir: string;
let cleanup: () => Promise<void>;
beforeEach(async () => {
  ({ dir, cleanup } = await tempDir('cogito-exec-'));
});
afterEach(async () => {
  await cleanup();
});

describe('createCommandRunner over real execa', () => {
  it('passes arguments literally and returns output and exit code', async () => {
    const marker = path.join(dir, 'marker');
    const hostile = `$(touch ${marker}); \`touch ${marker}\` & touch ${marker} | "'`;
    const result = await runner.run(
      process.execPath,
      ['-e', 'process.stdout.write(process.argv[1]); process.exit(4)', hostile],
      {
        signal: signal(),
      },
    );
    expect(result).toEqual({ stdout: hostile, stderr: '', exitCode: 4 });
    expect(existsSync(marker)).toBe(false);
  });

  it('adds environment variables', async () => {
    const result = await runner.run(
      process.execPath,
      ['-e', 'process.stdout.write(process.env.COGITO_X ?? "")'],
      {
        signal: signal(),
        env: { COGITO_X: 'a b; c' },
      },
    );
    expect(result.stdout).toBe('a b; c');
  });

  it('reports a missing program as unsupported', async () => {
    const failure = await failureOf(runner.run('cogito-no-such-program', [], { signal: signal() }));
    expect(failure.kind).toBe('unsupported');
    expect(failure.message).toContain('not installed or not on PATH');
  });

  it('stops a command past its timeout', async () => {
    const failure = await failureOf(
      runner.run(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], {
        signal: signal(),
        timeoutMs: 200,
      }),
    );
    expect(failure.kind).toBe('timeout');
  });

  it("stops a command when the turn's signal aborts", async () => {
    const controller = new AbortController();
    const started = path.join(dir, 'started');
    const pending = runner.run(
      process.execPath,
      [
        '-e',
        `require('fs').writeFileSync(${JSON.stringify(started)}, ''); setInterval(() => {}, 1000)`,
      ],
      {
        signal: controller.signal,
      },
    );
    await waitUntil(() => existsSync(started), 'the child to start');
    controller.abort();
    expect((await failureOf(pending)).kind).toBe('aborted');
  });

  it('launches a detached program and returns while it runs on', async () => {
    const done = path.join(dir, 'done');
    await runner.launch(
      process.execPath,
      ['-e', `setTimeout(() => require('fs').writeFileSync(${JSON.stringify(done)}, 'ok'), 50)`],
      {
        signal: signal(),
      },
    );
    expect(existsSync(done)).toBe(false);
    await waitUntil(() => existsSync(done), 'the child to finish');
  });

  it('reports a missing program on launch', async () => {
    expect(
      (await failureOf(runner.launch('cogito-no-such-program', [], { signal: signal() }))).kind,
    ).toBe('unsupported');
  });

  it('refuses to start anything once the turn is aborted', async () => {
    const controller = new AbortController();
    controller.abort();
    expect(
      (await failureOf(runner.run(process.execPath, ['-e', ''], { signal: controller.signal })))
        .kind,
    ).toBe('aborted');
    expect(
      (await failureOf(runner.launch(process.execPath, ['-e', ''], { signal: controller.signal })))
        .kind,
    ).toBe('aborted');
  });
});
