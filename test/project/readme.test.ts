import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '../..');

describe('README', () => {
  it('shows the set-up commands and the test command', async () => {
    const readme = await readFile(path.join(ROOT, 'README.md'), 'utf8');
    expect(readme).toMatch(/```sh\nnpm install\nnpm start\n```/);
    expect(readme).toContain('npm test');
  });

  it('carries the current screen capture (docs/screen.txt, checked against a real render)', async () => {
    const readme = await readFile(path.join(ROOT, 'README.md'), 'utf8');
    const screen = (await readFile(path.join(ROOT, 'docs/screen.txt'), 'utf8')).trimEnd();
    expect(readme).toContain(screen);
  });

  it('.ci/run installs tmux when missing and runs the README test command after npm ci', async () => {
    const ci = await readFile(path.join(ROOT, '.ci/run'), 'utf8');
    expect(ci).toMatch(/apt-get install -y[^\n]*tmux/);
    expect(ci.indexOf('npm ci')).toBeGreaterThan(-1);
    expect(ci.indexOf('npm test')).toBeGreaterThan(ci.indexOf('npm ci'));
  });
});
