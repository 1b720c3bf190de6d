/**
 * The slash commands as units: each runs against a fake CommandContext (no agent, no store,
 * no server), so what a command may do is exactly what the context offers, and what it did
 * is the verbs it called, what it said and the outcome it returned.
 */
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCommand } from '../../src/commands/runner.js';
import { t } from '../../src/i18n/messages.js';
import { fakeCommandContext } from '../helpers/fakeCommandContext.js';

const signal = new AbortController().signal;

describe('the command runner', () => {
  it('an answering command gives the floor back: its outcome is listen', async () => {
    const ctx = fakeCommandContext();
    expect(await runCommand('/help', ctx, signal)).toEqual({ after: 'listen' });
    expect(ctx.said.join('\n')).toContain('/help');
    expect(ctx.verbs()).toEqual([]);
  });

  it('/pause and /resume only call their verb and keep the machine where it went', async () => {
    const ctx = fakeCommandContext();
    expect(await runCommand('/pause', ctx, signal)).toEqual({ after: 'keep' });
    expect(await runCommand('/resume', ctx, signal)).toEqual({ after: 'keep' });
    expect(ctx.verbs()).toEqual(['pause', 'resume']);
    expect(ctx.said).toEqual([t('en', 'cmd.paused')]);
  });

  it('an unknown command answers with the list and listens', async () => {
    const ctx = fakeCommandContext();
    expect(await runCommand('/frobnicate now', ctx, signal)).toEqual({ after: 'listen' });
    expect(ctx.said[0]).toMatch(/unknown command \/frobnicate/);
    expect(ctx.said[0]).toContain('/help');
  });

  it('a command that throws is reported and listens', async () => {
    const ctx = fakeCommandContext({
      sessions: {
        list: async () => {
          throw new Error('disk on fire');
        },
        create: async () => {
          throw new Error('unused');
        },
        open: async () => {
          throw new Error('unused');
        },
      },
    });
    expect(await runCommand('/sessions', ctx, signal)).toEqual({ after: 'listen' });
    expect(ctx.said.join('\n')).toContain('disk on fire');
  });

  it('/approve changes the policy only through setApproval', async () => {
    // The fake's policy table is frozen: writing into it, as commands once did, would throw.
    const ctx = fakeCommandContext();
    expect(await runCommand('/approve destructive deny', ctx, signal)).toEqual({
      after: 'listen',
    });
    expect(ctx.calls).toEqual([{ verb: 'setApproval', kind: 'destructive', policy: 'deny' }]);
    expect(ctx.approval().destructive).toBe('deny');
    await runCommand('/approve everything yes', ctx, signal);
    expect(ctx.calls).toHaveLength(1);
    expect(ctx.said.at(-1)).toMatch(/usage: \/approve KIND POLICY/);
  });

  it('/new creates a session and switches to it once, without touching the screen itself', async () => {
    const ctx = fakeCommandContext({ state: { sessionId: 'old-one' } });
    await runCommand('/new', ctx, signal);
    expect(ctx.calls).toEqual([{ verb: 'switchSession', id: 'session-new-1' }]);
    expect(ctx.sessionId()).toBe('session-new-1');
    expect(ctx.said[0]).toContain('old-one');
  });

  it('/clear, /exit and /compact call their verbs', async () => {
    const ctx = fakeCommandContext({ state: { compactAnswer: 'nothing to compact yet' } });
    await runCommand('/clear', ctx, signal);
    await runCommand('/exit', ctx, signal);
    expect(await runCommand('/compact', ctx, signal)).toEqual({ after: 'listen' });
    expect(ctx.verbs()).toEqual(['clearScreen', 'quit', 'compactNow']);
    expect(ctx.said).toEqual(['nothing to compact yet']);
  });

  it('/persona switches through the context and reports the new one', async () => {
    const ctx = fakeCommandContext();
    await runCommand('/persona 侦探', ctx, signal);
    // Switched, then kept in config.json (by id) as the wizard keeps its answers.
    expect(ctx.calls).toEqual([
      { verb: 'switchPersona', name: '侦探' },
      { verb: 'saveSettings', patch: { persona: 'detective' } },
    ]);
    expect(ctx.personas.current.id).toBe('detective');
    expect(ctx.said[0]).toMatch(/Detective/);
    await runCommand('/persona nobody', ctx, signal);
    expect(ctx.said[1]).toMatch(/no persona "nobody"/);
  });

  it('/model NAME asks the context for a new provider', async () => {
    const ctx = fakeCommandContext();
    await runCommand('/model other-model', ctx, signal);
    expect(ctx.calls).toEqual([{ verb: 'setProvider', model: 'other-model' }]);
    expect(ctx.provider().model).toBe('other-model');
  });

  it('/trace, /cost and /ledger read only what the context shows them', async () => {
    const ctx = fakeCommandContext({
      state: {
        traces: [
          {
            turnId: 7,
            trigger: 'user',
            startedAt: 0,
            durationMs: 12,
            outcome: 'ok',
            steps: 1,
            phases: [
              { phase: 'RESTORE', step: 1, startMs: 0, durationMs: 1, outcome: 'next' },
              { phase: 'COMMAND', step: 1, startMs: 1, durationMs: 2, outcome: 'shortcut' },
            ],
          },
          {
            turnId: 8,
            trigger: 'user',
            startedAt: 0,
            durationMs: 30,
            outcome: 'ok',
            steps: 2,
            phases: [
              { phase: 'BUILD', step: 1, startMs: 0, durationMs: 1, outcome: 'next' },
              { phase: 'RESPOND', step: 1, startMs: 1, durationMs: 1, outcome: 'step' },
              { phase: 'COMPACT', step: 2, startMs: 2, durationMs: 1, outcome: 'next' },
              { phase: 'RESPOND', step: 2, startMs: 3, durationMs: 1, outcome: 'next' },
            ],
          },
        ],
        spending: {
          sessionTokens: 1500,
          cachedTokens: 500,
          lastHour: 1200,
          lastDay: 1500,
          perHour: 10_000,
          perDay: 0,
        },
      },
    });
    await runCommand('/trace', ctx, signal);
    expect(ctx.said[0]).toBe(
      'turn 7 (user, ok, 12 ms): RESTORE 1ms → COMMAND 2ms shortcut\n' +
        // A tool chain: one turn, its steps marked where they start.
        'turn 8 (user, ok, 2 steps, 30 ms): BUILD 1ms → RESPOND 1ms step → [step 2] COMPACT 1ms → RESPOND 1ms',
    );
    await runCommand('/cost', ctx, signal);
    expect(ctx.said[1]).toContain('1.5k');
    expect(ctx.said[1]).toContain('10k');
    await runCommand('/ledger', ctx, signal);
    expect(ctx.said[2]).toBe(t('en', 'cmd.ledgerEmpty'));
    expect(ctx.verbs()).toEqual([]);
  });

  it('/remind sets a reminder through the context', async () => {
    const ctx = fakeCommandContext();
    await runCommand('/remind in 10m water the plants', ctx, signal);
    expect(ctx.calls).toMatchObject([{ verb: 'remind', what: 'water the plants' }]);
    expect(ctx.reminders.pending()).toHaveLength(1);
  });
});

describe('what commands may reach', () => {
  it('no command module imports the Agent, the store or the machine', async () => {
    const dir = path.join(import.meta.dirname, '../../src/commands');
    const files = (await readdir(dir)).filter((f) => f.endsWith('.ts'));
    expect(files.length).toBeGreaterThan(5);
    for (const file of files) {
      const text = await readFile(path.join(dir, file), 'utf8');
      expect(text, file).not.toMatch(/from '\.\.\/agent\/agent\.js'/);
      expect(text, file).not.toMatch(/from '\.\.\/store\//);
      expect(text, file).not.toMatch(/from '\.\.\/machine\//);
      expect(text, file).not.toMatch(/\.emit\(|\.transition\(|\.settings\b/);
    }
  });
});
