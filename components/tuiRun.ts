/**
 * What one run of the full-screen app hands to the screens it shows (runTui.tsx builds it;
 * the in-process and the attached screen, runAttached.tsx, both use it): its own file, so
 * neither screen's file imports the other's.
 */
import type { DisposerStack } from '../src/app/disposers.js';
import type { StartFlags } from '../src/daemon/commandArgs.js';
import type { Lang } from '../src/i18n/messages.js';
import type { ScreenSession } from './terminal/screenSession.js';

/**
 * One run of the screen: its streams, the language of its messages, the screen session
 * (entered on first use) and the disposer stack that everything started registers on.
 */
export interface TuiRun {
  readonly stdin: NodeJS.ReadStream;
  readonly stdout: NodeJS.WriteStream;
  readonly stderr: NodeJS.WritableStream;
  readonly env: NodeJS.ProcessEnv;
  /** Before the app's config is known, the wizard's or the environment's; then the app's. */
  lang: Lang;
  readonly root: DisposerStack;
  /** Whether the screen session has been entered. */
  readonly entered: boolean;
  /** The screen session, entered on first use; ending it is on the root stack. */
  screen(): ScreenSession;
  isTerminal(): boolean;
  /** The one quit: ends the screen at once (the terminal comes back); `runTui` then closes the stack. */
  exit(code: number): void;
  /** The code `exit` was called with, if it was. */
  readonly exitedWith: number | undefined;
  /** /detach asked for a background agent to take over once the app has closed. */
  handOver?: StartFlags;
}
