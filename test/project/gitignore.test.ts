/**
 * A checkout is its own app home (README, "Where files live"): what Cogito writes there is
 * the user's and must never be committed by accident.
 */
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '../..');
const run = promisify(execFile);

/** Whether git ignores `file` (relative to the checkout); it need not exist. */
async function ignored(file: string): Promise<boolean> {
  try {
    await run('git', ['check-ignore', '--no-index', '-q', file], { cwd: ROOT });
    return true;
  } catch {
    return false;
  }
}

describe("the checkout's .gitignore", () => {
  it("ignores the home's files: config.json, cogito.lock, models/, data/, persona.md", async () => {
    for (const file of [
      'config.json',
      'cogito.lock',
      'models/qwen2.5-3b-instruct-q4_k_m.gguf',
      'data/sessions/2026-12-01T09-30-00-000-abc/history.jsonl',
      'data/locks/0123456789abcdef01234567.lock',
      'persona.md',
    ]) {
      expect(await ignored(file), file).toBe(true);
    }
  });

  it('keeps the project files a checkout ships', async () => {
    for (const file of ['data/.gitkeep', 'personas/assistant.md', 'docs/config.json']) {
      expect(await ignored(file), file).toBe(false);
    }
  });
});
