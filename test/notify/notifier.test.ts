/**
 * The notifier's rules: once per occurrence, kinds switched off, quiet hours, and nothing
 * while the user looks at the screen. Channels here record what they are handed.
 */
import { describe, expect, test } from 'vitest';
import type { AgentEvent } from '../../src/api/events.js';
import { notifySchema, type NotifySettings } from '../../src/config/notifySchema.js';
import type { Notification, NotifyChannel } from '../../src/notify/notification.js';
import { createNotifier, type ScreenPresence } from '../../src/notify/notifier.js';
import { isQuiet, parseQuietHours } from '../../src/config/quietHours.js';
import { configSchema } from '../../src/config/schema.js';
import { toConfigIssues } from '../../src/config/issues.js';
import { makeMessage } from '../../src/core/messages.js';
import type { TurnTrace } from '../../src/api/trace.js';
import { waitUntil } from '../helpers/waitFor.js';

function recorder(name: string): NotifyChannel & { sent: Notification[] } {
  const sent: Notification[] = [];
  return { name, sent, send: async (n) => void sent.push(n) };
}

const TRACE = {} as TurnTrace;
const waitTurn = (turnId: number, reply: string): AgentEvent[] => [
  { type: 'turn_start', turnId, trigger: 'user', cycle: 1 },
  { type: 'message_added', message: makeMessage('assistant', reply) },
  { type: 'turn_end', turnId, outcome: 'ok', wait: true, trace: TRACE },
];
const autoPause = (reason: string, from: 'THINKING' | 'PAUSED' = 'THINKING'): AgentEvent => ({
  type: 'state_changed',
  from,
  to: 'PAUSED',
  event: 'AUTO_PAUSE',
  reason,
});
const at = (hh: number, mm = 0): Date => new Date(2026, 4, 1, hh, mm);

function rig(
  config: Partial<NotifySettings> = {},
  opts: { focused?: boolean; hour?: number } = {},
) {
  const desktop = recorder('desktop');
  const terminal = recorder('terminal');
  let focused = opts.focused;
  const notifier = createNotifier({
    config: { ...notifySchema.parse({}), ...config },
    desktop,
    ...(focused === undefined ? {} : { screen: { focused: () => focused!, channel: terminal } }),
    onFailure: () => {},
    now: () => at(opts.hour ?? 12),
  });
  const feed = (events: AgentEvent[]): void => events.forEach((e) => notifier.handle(e));
  const setFocus = (f: boolean): void => void (focused = f);
  return { notifier, desktop, terminal, feed, setFocus };
}

describe('what needs the user', () => {
  test('a [WAIT] reply: its first line, without the marker or markdown noise', async () => {
    const r = rig();
    r.feed(waitTurn(1, 'Shall I **rebase** onto main? **[WAIT]**'));
    r.feed(waitTurn(2, '\n\n   \nFirst real line\nsecond line [WAIT]'));
    await r.notifier.settled();
    expect(r.desktop.sent.map((n) => [n.kind, n.text])).toEqual([
      ['wait', 'Shall I **rebase** onto main?'],
      ['wait', 'First real line'],
    ]);
  });

  test('a turn that did not end with [WAIT] notifies nothing', () => {
    const r = rig();
    r.feed([
      { type: 'turn_start', turnId: 1, trigger: 'timer', cycle: 1 },
      { type: 'message_added', message: makeMessage('assistant', 'Looked around.') },
      { type: 'turn_end', turnId: 1, outcome: 'ok', wait: false, trace: TRACE },
    ]);
    expect(r.desktop.sent).toEqual([]);
  });

  test('a pause is one event until the agent leaves PAUSED; a later pause is another', async () => {
    const r = rig();
    r.feed([autoPause('budget'), autoPause('budget again', 'PAUSED')]);
    r.feed([{ type: 'state_changed', from: 'PAUSED', to: 'THINKING', event: 'RESUME' }]);
    r.feed([autoPause('loop guard: the same tool call ran 3 times')]);
    await r.notifier.settled();
    expect(r.desktop.sent.map((n) => n.text)).toEqual([
      'Paused: budget',
      'Paused: loop guard: the same tool call ran 3 times',
    ]);
  });

  test("the user's reminders falling due (with their text, not the model's own), and a background agent that stopped", async () => {
    const r = rig();
    const reminder = (id: number, what: string, by: 'user' | 'model') => ({ id, at: 0, what, by });
    r.feed([
      { type: 'turn_start', turnId: 4, trigger: 'schedule', cycle: 2 },
      { type: 'reminders_due', reminders: [reminder(1, 'look at the build log', 'model')] },
      { type: 'turn_start', turnId: 5, trigger: 'schedule', cycle: 3 },
      {
        type: 'reminders_due',
        reminders: [
          reminder(2, 'call Ana', 'user'),
          reminder(3, 'tidy up', 'model'),
          reminder(4, 'stand up', 'user'),
        ],
      },
      { type: 'reminders_due', reminders: [reminder(5, 'water the \x1b[31mplants', 'user')] },
    ]);
    r.notifier.stopped('the model server refused the API key (401)');
    await r.notifier.settled();
    expect(r.desktop.sent.map((n) => [n.kind, n.text])).toEqual([
      ['reminder', 'Reminders: call Ana; stand up'],
      // The escape is gone; what is left is plain text.
      ['reminder', 'Reminder: water the [31mplants'],
      ['stopped', 'Stopped: the model server refused the API key (401)'],
    ]);
  });
});

describe('when it stays quiet', () => {
  test('a kind turned off is never sent', () => {
    const r = rig({ kinds: { ...notifySchema.parse({}).kinds, pause: false } });
    r.feed([autoPause('budget'), ...waitTurn(1, 'Which one? [WAIT]')]);
    expect(r.desktop.sent.map((n) => n.kind)).toEqual(['wait']);
  });

  test('quiet hours over midnight suppress at 23:30 and 06:59, not at 07:00', () => {
    for (const [hour, minute, sent] of [
      [23, 30, 0],
      [6, 59, 0],
      [7, 0, 1],
      [21, 59, 1],
    ] as const) {
      const desktop = recorder('desktop');
      const notifier = createNotifier({
        config: { ...notifySchema.parse({}), quietHours: '22:00-07:00' },
        desktop,
        onFailure: () => {},
        now: () => at(hour, minute),
      });
      notifier.handle(autoPause('budget'));
      expect(desktop.sent, `${hour}:${minute}`).toHaveLength(sent);
    }
  });

  test('the screen: nothing while focused; the terminal (not the desktop) once focus is lost', () => {
    const r = rig({}, { focused: true });
    r.feed(waitTurn(1, 'Look here? [WAIT]'));
    expect(r.terminal.sent).toEqual([]);
    r.setFocus(false);
    r.feed(waitTurn(2, 'And now? [WAIT]'));
    expect(r.terminal.sent.map((n) => n.text)).toEqual(['And now?']);
    expect(r.desktop.sent).toEqual([]);
  });

  test('the screen with notify.desktop: both channels once focus is lost', () => {
    const r = rig({ desktop: true }, { focused: false });
    r.feed(waitTurn(1, 'Ready? [WAIT]'));
    expect([r.terminal.sent.length, r.desktop.sent.length]).toEqual([1, 1]);
  });

  test('a background agent: desktop with no screen, none while one is focused, the desktop only with notify.desktop while unfocused', async () => {
    for (const desktopToo of [false, true]) {
      const desktop = recorder('desktop');
      let screens: ScreenPresence = 'none';
      const notifier = createNotifier({
        config: { ...notifySchema.parse({}), desktop: desktopToo },
        desktop,
        remoteScreens: () => screens,
        onFailure: () => {},
      });
      const turn = (id: number, presence: ScreenPresence): void => {
        screens = presence;
        waitTurn(id, `Turn ${id}? [WAIT]`).forEach((e) => notifier.handle(e));
      };
      turn(1, 'none');
      turn(2, 'focused');
      // An unfocused attached screen writes the terminal's notification itself.
      turn(3, 'unfocused');
      turn(4, 'none');
      await notifier.settled();
      const expected = desktopToo ? ['Turn 1?', 'Turn 3?', 'Turn 4?'] : ['Turn 1?', 'Turn 4?'];
      expect(desktop.sent.map((n) => n.text)).toEqual(expected);
    }
  });

  test('one channel sends in order: the next notification starts once the one before is delivered', async () => {
    const started: string[] = [];
    const finishers: (() => void)[] = [];
    const slow: NotifyChannel = {
      name: 'slow',
      send: (n) => {
        started.push(n.text);
        return new Promise<void>((resolve) => finishers.push(resolve));
      },
    };
    const notifier = createNotifier({
      config: notifySchema.parse({}),
      desktop: slow,
      onFailure: () => {},
    });
    waitTurn(1, 'Approve this? [WAIT]').forEach((e) => notifier.handle(e));
    notifier.handle(autoPause('the hourly token budget'));
    // The second waits for the first, however long its process takes.
    await Promise.resolve();
    expect(started).toEqual(['Approve this?']);
    finishers.shift()!();
    await waitUntil(() => started.length === 2, 'the second send');
    expect(started).toEqual(['Approve this?', 'Paused: the hourly token budget']);
    finishers.shift()!();
    await notifier.settled();
  });

  test('a channel that throws is reported, not rethrown into the agent', async () => {
    const failures: string[] = [];
    const notifier = createNotifier({
      config: notifySchema.parse({}),
      desktop: {
        name: 'broken',
        send: () => {
          throw new Error('boom');
        },
      },
      onFailure: (t) => failures.push(t),
    });
    expect(() => notifier.handle(autoPause('budget'))).not.toThrow();
    await notifier.settled();
    expect(failures).toEqual(['Notification by broken failed: boom']);
  });
});

describe('quiet hours as written in config.json', () => {
  test('spans are read in local minutes; equal ends mean none', () => {
    expect(parseQuietHours('22:00-07:00')).toEqual({ from: 1320, to: 420 });
    expect(parseQuietHours(' 9:30 - 17:00 ')).toEqual({ from: 570, to: 1020 });
    expect(isQuiet(parseQuietHours('09:30-17:00')!, at(12))).toBe(true);
    expect(isQuiet(parseQuietHours('09:30-17:00')!, at(17))).toBe(false);
    expect(isQuiet(parseQuietHours('08:00-08:00')!, at(8))).toBe(false);
  });

  test('a bad span is a config error naming the value and the fix', () => {
    for (const bad of ['22-07', '25:00-07:00', '22:00 to 07:00', '22:60-07:00']) {
      expect(parseQuietHours(bad), bad).toBeUndefined();
      const input = { notify: { quietHours: bad } };
      const check = configSchema.safeParse(input);
      expect(check.success).toBe(false);
      const [issue] = toConfigIssues(check.error!.issues, input);
      expect(issue).toEqual({
        field: 'notify.quietHours',
        problem: 'is not a span of local time like "22:00-07:00"',
        fix: 'Write two 24-hour times joined by a dash, e.g. "quietHours": "22:00-07:00", or remove it.',
      });
    }
  });

  test('the defaults: every kind on, the desktop only without a screen, no quiet hours', () => {
    expect(configSchema.parse({}).notify).toEqual({
      desktop: false,
      kinds: { wait: true, approval: true, pause: true, reminder: true, stopped: true },
    });
  });

  test('a misspelt kind is reported, not ignored', () => {
    const input = { notify: { kinds: { wiat: false } } };
    const check = configSchema.safeParse(input);
    expect(check.success).toBe(false);
    expect(toConfigIssues(check.error!.issues, input)[0]?.field).toBe('notify.kinds.wiat');
  });
});
