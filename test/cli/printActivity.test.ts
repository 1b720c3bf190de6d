/**
 * `-p --json` carries the agent's activity (#42): working while the turn runs, then waiting for
 * the user's answer with the question, as `activity` events among the others.
 */
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import type { Activity } from '../../src/api/activity.js';
import { main } from '../../src/cli/main.js';
import { useAppDirs } from '../helpers/appDirs.js';

describe('print mode --json: activity events', () => {
  const dirs = useAppDirs('cogito-print-activity');

  it('says working, then waiting for the answer with the question', async () => {
    const { server, ws, home, env } = dirs;
    server.push({
      kind: 'stream',
      content: 'Two files look alike.\nWhich one should I keep?\n[WAIT]',
    });
    const out = new PassThrough();
    let text = '';
    out.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
    const code = await main({
      argv: ['-p', 'tidy up', '--json', '--workspace', ws, '--home', home],
      env,
      stdout: out,
      stderr: new PassThrough(),
    });
    expect(code).toBe(0);
    const activities = text
      .split('\n')
      .filter((l) => l.trim() !== '')
      .map((l) => JSON.parse(l) as { type: string; activity?: Activity })
      .filter((e) => e.type === 'activity')
      .map((e) => e.activity!);
    expect(activities.map((a) => a.state)).toContain('working');
    const last = activities.at(-1)!;
    expect(last).toMatchObject({
      state: 'waiting',
      question: { text: 'Which one should I keep?' },
    });
    // It answered the user's own message: it waits for the user, it does not resume watching.
    expect(last).not.toHaveProperty('watchFrom');
  });
});
