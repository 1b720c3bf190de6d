/**
 * /detach in the in-process full-screen app (issue #27): the session goes on in a background
 * agent. The turn in flight is finished first (and the screen says so), then the app closes
 * (its folder lock released, the session still the folder's current one) and the same
 * start `cogito start` uses runs the background agent, which resumes that session.
 */
import type { CliFlags } from '../src/cli/args.js';
import type { StartFlags } from '../src/daemon/commandArgs.js';
import type { DaemonDeps } from '../src/daemon/startCommand.js';
import { t, type Lang } from '../src/i18n/messages.js';
import type { AgentController } from './controller.js';

/** Starts the folder's background agent; the real one is `runStart` (src/daemon). */
export type StartBackground = (flags: StartFlags, io: DaemonDeps) => Promise<number>;

/**
 * Calls `go` once no turn is in flight: at once when idle, otherwise after the turn ends
 * (a notice says so). A turn waiting for an approval waits for the user's answer.
 * Returns a cancel for the wait (the screen may end another way first).
 */
export function whenTurnDone(agent: AgentController, lang: Lang, go: () => void): () => void {
  const inFlight = (): boolean => {
    const s = agent.store.getState();
    return agent.busy === true || s.streaming || s.machine === 'AWAITING_APPROVAL';
  };
  if (!inFlight()) {
    go();
    return () => undefined;
  }
  agent.send({ type: 'notice', text: t(lang, 'detach.finishing') });
  let done = false;
  const finish = (): void => {
    done = true;
    unsubscribe();
    clearInterval(timer);
  };
  const check = (): void => {
    if (done || inFlight()) return;
    finish();
    go();
  };
  const unsubscribe = agent.store.subscribe(check);
  // The scheduler's running flag clears just after the turn's last event: look again soon.
  const timer = setInterval(check, 100);
  return finish;
}

/** The background agent's start flags: the options this screen ran with, in its folder. */
export function startFlagsOf(flags: CliFlags, workspace: string): StartFlags {
  return {
    workspace,
    home: flags.home,
    model: flags.model,
    baseUrl: flags.baseUrl,
    persona: flags.persona,
    thinkIntervalMs: flags.thinkIntervalMs,
    paused: flags.paused,
    debug: flags.debug,
  };
}

/** After the app has closed: starts the background agent and says how to come back. */
export async function startInBackground(
  start: StartBackground,
  flags: StartFlags,
  io: DaemonDeps & { lang: Lang },
): Promise<number> {
  const workspace = flags.workspace ?? '';
  io.stdout.write(`${t(io.lang, 'detach.handover', { workspace })}\n`);
  const code = await start(flags, io);
  if (code === 0) io.stdout.write(`  attach: cogito (in ${workspace})\n`);
  return code;
}
