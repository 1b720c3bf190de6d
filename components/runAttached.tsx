/**
 * A screen attached to the folder's background agent (issue #27): no agent of its own. It
 * mirrors the agent's store over the socket (src/daemon/attach.ts) and renders the same `App`
 * as the in-process screen; keys become commands written to the socket. Ctrl+D and /detach
 * leave the agent running; the quit keys and /exit stop it. A connection that breaks ends
 * the screen with a line saying so, never a hang.
 */
import type { SessionChoice } from '../src/history/sessionChoices.js';
import React from 'react';
import type { AgentCommand } from '../src/api/commands.js';
import { collectWhenQuiet } from '../src/app/idleCollect.js';
import { attachTo, type Attachment } from '../src/daemon/attach.js';
import type { RegistryEntry } from '../src/daemon/registry.js';
import type { NotifySettings } from '../src/config/notifySchema.js';
import { t } from '../src/i18n/messages.js';
import { App } from './App.js';
import type { AgentController } from './controller.js';
import type { TuiRun } from './tuiRun.js';
import { notifyOnScreen } from './screenNotifier.js';
import { invokedAs } from '../src/core/invokedAs.js';

/** How the screen ended: left (the agent runs on), stopped it, or lost the agent. */
type Ending = { how: 'detached' } | { how: 'stopped' } | { how: 'lost'; why: string };

/** Attaches to `entry`'s agent and shows it until the screen leaves; resolves with the exit code. */
export async function runAttached(
  run: TuiRun,
  entry: RegistryEntry,
  notify?: NotifySettings,
  /** This folder's sessions for the `/resume` picker (the agent opens the chosen one). */
  listSessions?: () => Promise<readonly SessionChoice[]>,
  /** Workspace paths for the `@` list (read by this screen's process, not the agent's). */
  findPaths?: (query: string) => Promise<readonly string[]>,
  /** The attachment, when the caller started it already (while this module loaded). */
  attaching?: Promise<Attachment>,
): Promise<number> {
  const { workspace, pid } = entry;
  let a: Attachment;
  try {
    a = await (attaching ?? attachTo(entry));
  } catch (err) {
    const why = err instanceof Error ? err.message : String(err);
    run.stderr.write(
      `${t(run.lang, 'attach.failed', { workspace, pid, why, cmd: invokedAs() })}\n`,
    );
    return 1;
  }
  run.root.defer('the connection to the agent', () => a.detach());
  if (!run.isTerminal()) {
    run.stderr.write(`${t(run.lang, 'tui.notATerminal', { cmd: invokedAs() })}\n`);
    return 2;
  }
  let ending: Ending | undefined;
  const end = (e: Ending, code: number): void => {
    ending ??= e;
    run.exit(code);
  };
  const detach = (): void => {
    end({ how: 'detached' }, 0);
    a.detach();
  };
  // The quit keys and /exit (caught by the key table) end the agent, as in its own screen.
  const stop = (): void => {
    end({ how: 'stopped' }, 0);
    void a.stop().catch(() => undefined);
  };
  void a.ended.then((e) => {
    if (!e.left) end({ how: 'lost', why: e.why }, 1);
  });
  const controller: AgentController = {
    store: a.store,
    send: (command: AgentCommand) => {
      // /detach is the screen's own business: the agent must not see it (it would stop
      // the turn in flight, and a background agent has nothing to detach from).
      if (command.type === 'submit' && /^\s*\/detach\s*$/i.test(command.text)) detach();
      else a.send(command);
    },
  };
  // This screen draws every token the agent streams and keeps what it drew (its line and
  // frame caches, the mirror): the same collection in a quiet moment as the in-process app.
  run.root.defer(
    'the idle collection',
    collectWhenQuiet((listener) => a.subscribe(listener)),
  );
  const session = run.screen();
  // The agent notifies the desktop unless a screen says it has focus; this screen writes the
  // terminal's own notification when it has not (docs/NOTIFY.md, "The background agent").
  const { focus } = session;
  a.focus(focus.focused);
  run.root.defer(
    'the focus reports',
    focus.onChange((focused) => a.focus(focused)),
  );
  run.root.defer(
    'the screen notifier',
    notifyOnScreen({
      agent: { subscribe: (l) => a.subscribe(l), send: (c) => a.send(c) },
      config: notify,
      workspace,
      session,
      stdout: run.stdout,
      env: run.env,
      desktop: false,
    }),
  );
  // What happened since the agent started, the way a returning user sees it in their screen.
  const away = { since: Date.parse(entry.started) || Date.now(), until: Date.now() };
  const shown = await session.show<never>(() => (
    <App
      controller={controller}
      workspace={workspace}
      lang={run.lang}
      onExit={stop}
      onDetach={detach}
      away={away}
      {...(listSessions ? { listSessions } : {})}
      {...(findPaths ? { findPaths } : {})}
      onRedraw={() => session.clearScreen()}
      onMouse={(on) => session.setMouse(on)}
    />
  ));
  const code = shown.ended ? shown.code : 0;
  if (ending?.how === 'detached') {
    run.stderr.write(`${t(run.lang, 'attach.detached', { workspace, pid, cmd: invokedAs() })}\n`);
  } else if (ending?.how === 'stopped') {
    run.stderr.write(`${t(run.lang, 'attach.stopped', { workspace })}\n`);
  } else if (ending?.how === 'lost') {
    run.stderr.write(
      `${t(run.lang, 'attach.lost', { workspace, why: ending.why, cmd: invokedAs() })}\n`,
    );
  }
  return code;
}
