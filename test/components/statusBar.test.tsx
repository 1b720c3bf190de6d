import React from 'react';
import { render } from 'ink-testing-library';
import { afterEach, describe, expect, test } from 'vitest';
import { StatusBar, fitSegments } from '../../components/StatusBar.js';
import { LangContext } from '../../components/i18n.js';
import { createFakeController } from '../helpers/fakeController.js';
import { renderApp, type Harness } from '../helpers/renderApp.js';
import { waitForFrame } from '../helpers/waitForFrame.js';
import { SPINNER_FRAMES } from '../../components/hooks/useSpinner.js';

let h: Harness | undefined;
afterEach(() => {
  h?.unmount();
  h = undefined;
});

describe('StatusBar', () => {
  test('shows state, persona, model, workspace, cycle and tokens', async () => {
    const c = createFakeController({
      machine: 'THINKING',
      cycle: 3,
      contextTokens: 1234,
      sessionTokens: 15_600,
    });
    const r = render(<StatusBar store={c.store} width={100} workspace="/srv/notes" />);
    const f = await waitForFrame(r.lastFrame, (x) => x.includes('Thinking'));
    expect(f.split('\n')[0]).toBe(
      '● Thinking │ explorer │ test-model │ /srv/notes │ Cycle 3/∞ │ Context 1.2k │ Session 15.6k',
    );
    r.unmount();
  });

  test('shows the cycle limit and the hourly budget when they are set', async () => {
    const c = createFakeController({ machine: 'THINKING', cycle: 4, maxCycles: 20 });
    const r = render(<StatusBar store={c.store} width={120} workspace="/srv/notes" />);
    c.emit({ type: 'settings_changed', budgetPerHour: 50_000 });
    c.emit({ type: 'budget', usedLastHour: 12_000 });
    const f = await waitForFrame(r.lastFrame, (x) => x.includes('Budget'));
    expect(f.split('\n')[0]).toContain('Cycle 4/20');
    expect(f.split('\n')[0]).toContain('Budget 12k/50k per hour');
    r.unmount();
  });

  test('shows how many background commands run, and nothing once none does', async () => {
    const c = createFakeController({ machine: 'AWAITING_INPUT' });
    const r = render(<StatusBar store={c.store} width={140} workspace="/srv/notes" />);
    c.emit({ type: 'commands_running', count: 2 });
    await waitForFrame(r.lastFrame, (x) => x.includes('2 commands running'));
    c.emit({ type: 'commands_running', count: 1 });
    await waitForFrame(r.lastFrame, (x) => x.includes('1 command running'));
    c.emit({ type: 'commands_running', count: 0 });
    await waitForFrame(r.lastFrame, (x) => !x.includes('running'));
    r.unmount();
  });

  test('follows the store, with a spinner while streaming', async () => {
    const c = createFakeController({ machine: 'THINKING' });
    h = await renderApp({ c });
    c.emit({ type: 'request_start', turnId: 1, promptTokens: 2048 });
    c.emit({
      type: 'usage',
      turnId: 1,
      usage: { promptTokens: 2048, completionTokens: 100, totalTokens: 2148 },
      estimated: false,
    });
    const spinning = (f: string): boolean =>
      SPINNER_FRAMES.some((s) => f.startsWith(`● Thinking ${s}`));
    const f1 = await h.waitFor((f) => spinning(f) && f.includes('Context 2k'));
    expect(f1).toContain('Session 2.1k');
    const first = f1.split('\n')[0];
    await h.waitFor((f) => spinning(f) && f.split('\n')[0] !== first);
    c.emit({
      type: 'settings_changed',
      model: 'other-model',
      persona: 'scholar',
      contextWindow: 64_000,
    });
    await h.waitFor((f) => f.includes('scholar │ other-model') && f.includes('Context 2k/64k'));
  });

  test('shows why it paused by itself', async () => {
    const c = createFakeController({ machine: 'THINKING' });
    h = await renderApp({ c });
    c.move('AUTO_PAUSE', 'paused: reached the limit of 20 autonomous cycles');
    const f = await h.waitFor((x) => x.includes('● Paused'));
    expect(f.split('\n')[1]).toBe('paused: reached the limit of 20 autonomous cycles');
  });

  test('shows the latest notice briefly', async () => {
    const c = createFakeController({ machine: 'AWAITING_INPUT' });
    h = await renderApp({ c, noticeTtlMs: 300 });
    c.emit({ type: 'error', error: { kind: 'network', message: 'connection refused' } });
    const f = await h.waitFor((x) => x.split('\n')[1] === 'connection refused');
    expect(f).toContain('· connection refused'); // it stays in the conversation
    await h.waitFor((x) => x.split('\n')[1] !== 'connection refused');
    expect(h.frame()).toContain('· connection refused');
  });

  test('drops the least important parts when narrow, never the state', async () => {
    const c = createFakeController({ machine: 'AWAITING_APPROVAL' });
    const r = render(<StatusBar store={c.store} width={30} workspace="/srv/notes" />);
    const f = await waitForFrame(r.lastFrame, (x) => x.includes('Needs approval'));
    expect(f.split('\n')[0]!.length).toBeLessThanOrEqual(30);
    expect(f).toContain('● Needs approval');
    r.unmount();
    expect(
      fitSegments(
        [
          { text: 'aaaa', keep: 9 },
          { text: 'bbbb', keep: 1 },
          { text: 'cc', keep: 5 },
        ],
        9,
        ' ',
      ),
    ).toEqual([
      { text: 'aaaa', keep: 9 },
      { text: 'cc', keep: 5 },
    ]);
  });

  test('speaks Chinese', async () => {
    const c = createFakeController({ machine: 'PAUSED', cycle: 2 });
    const r = render(
      <LangContext.Provider value="zh">
        <StatusBar store={c.store} width={100} workspace="/srv" />
      </LangContext.Provider>,
    );
    const f = await waitForFrame(r.lastFrame, (x) => x.includes('已暂停'));
    expect(f).toContain('轮次 2');
    r.unmount();
  });
});
