import React, { useEffect } from 'react';
import { useApp } from 'ink';
import type { Lang } from '../src/i18n/messages.js';
import { completeCommand } from '../src/commands/complete.js';
import type { AgentController, AgentLoop } from './controller.js';
import { useWindowSize } from './hooks/useWindowSize.js';
import { LangContext } from './i18n.js';
import { Screen, type ScreenProps } from './Screen.js';

/**
 * Starts the agent's background loop when the screen mounts and stops it when it unmounts.
 * It holds no agent logic: the loop lives in src/.
 */
function useAgentLoop(loop: AgentLoop | undefined): void {
  useEffect(() => {
    if (!loop) return;
    loop.start();
    return () => {
      void loop.stop();
    };
  }, [loop]);
}

/** What the root hands to the screen as it is, described once, on the screen's props. */
type PassedToScreen =
  | 'onDetach'
  | 'away'
  | 'onRedraw'
  | 'noticeTtlMs'
  | 'approvalDelayMs'
  | 'now'
  | 'mouse'
  | 'onMouse'
  | 'listSessions'
  | 'findPaths'
  | 'awayAfterMs';

export interface AppProps extends Pick<ScreenProps, PassedToScreen> {
  controller: AgentController;
  /** Started on mount, stopped on unmount (the real app passes the agent). */
  loop?: AgentLoop;
  /** The workspace folder, shown shortened in the status bar. */
  workspace?: string;
  lang?: Lang;
  /** Fixed sizes (tests); otherwise the terminal's, followed on resize. */
  columns?: number;
  rows?: number;
  /** Slash-command completion for Tab; defaults to the built-in command table. */
  complete?(prefix: string): string[];
  /**
   * The quit keys call it: the root's one exit (the real app passes the run's exit, which
   * ends the screen and stops what started; /exit reaches the same exit through the app).
   * Defaults to Ink's exit.
   */
  onExit?(): void;
}

/** The root: window size, language, the background loop, and exit. */
export function App(p: AppProps): React.JSX.Element {
  const { exit } = useApp();
  const size = useWindowSize(p.columns, p.rows);
  useAgentLoop(p.loop);

  return (
    <LangContext.Provider value={p.lang ?? 'en'}>
      <Screen
        controller={p.controller}
        columns={size.columns}
        rows={size.rows}
        workspace={p.workspace ?? ''}
        complete={p.complete ?? completeCommand}
        onExit={p.onExit ?? exit}
        {...(p.onRedraw ? { onRedraw: p.onRedraw } : {})}
        {...(p.onDetach ? { onDetach: p.onDetach } : {})}
        {...(p.away ? { away: p.away } : {})}
        {...(p.noticeTtlMs !== undefined ? { noticeTtlMs: p.noticeTtlMs } : {})}
        {...(p.approvalDelayMs !== undefined ? { approvalDelayMs: p.approvalDelayMs } : {})}
        {...(p.now ? { now: p.now } : {})}
        {...(p.mouse !== undefined ? { mouse: p.mouse } : {})}
        {...(p.onMouse ? { onMouse: p.onMouse } : {})}
        {...(p.listSessions ? { listSessions: p.listSessions } : {})}
        {...(p.findPaths ? { findPaths: p.findPaths } : {})}
        {...(p.awayAfterMs !== undefined ? { awayAfterMs: p.awayAfterMs } : {})}
      />
    </LangContext.Provider>
  );
}
