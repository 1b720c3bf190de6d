/** Faults on the way to the model: HTTP errors, broken streams, a host that does not resolve. */
import { swapProvider, internalsOf } from '../../test/helpers/agentInternals.js';
import { createProvider } from '../../src/providers/fromConfig.js';
import type { Step } from '../../test/helpers/scriptedServer.js';
import { startCore, visibleText } from './core.js';
import { isError, isOkEnd, lostFromDisk, type FaultRow } from './faultKit.js';

/** A provider fault: the first request fails as scripted, the next one succeeds. */
export async function providerFault(
  fault: string,
  first: Step,
  config: Record<string, unknown> = {},
): Promise<FaultRow> {
  const core = await startCore({ config });
  try {
    core.server.push(first);
    core.server.setDefault({ kind: 'stream', content: 'All good again. [WAIT]' });
    core.app.agent.start();
    const req = await core.server.waitForRequest(0, 10_000);
    const err = await core.waitFor(isError, 'the error');
    const ok = await core.waitFor(isOkEnd, 'a successful turn', { timeoutMs: 30_000 });
    const inMemory = internalsOf(core.app.agent).history.messages();
    // A reply cut short by a failure is kept, marked `failed` (or `interrupted` by the user).
    const partial = inMemory.find((m) => m.role === 'assistant' && (m.failed || m.interrupted));
    await core.close();
    return {
      fault,
      survived: core.app.agent.state === 'AWAITING_INPUT' || core.app.agent.state === 'THINKING',
      dataLost: await lostFromDisk(core.home, inMemory),
      detectMs: Math.round(err.t - (req.receivedAt - 0)),
      recoverMs: Math.round(ok.t - err.t),
      message: visibleText(err.e) ?? '',
      detail: partial
        ? `partial reply kept, marked ${partial.failed ? 'failed' : 'interrupted'} (${partial.content.length} chars)`
        : 'nothing partial to keep',
    };
  } finally {
    core.home.cleanup();
  }
}

/**
 * A base URL whose host cannot resolve (`.invalid`, so nothing leaves the machine): the
 * failures, the auto-pause, and working again once the address is fixed and autonomy resumed.
 */
export async function unresolvableHost(): Promise<FaultRow> {
  const core = await startCore({
    env: { COGITO_BASE_URL: 'http://cogito-no-such-host.invalid/v1' },
    config: { backoff: { baseMs: 250, maxMs: 1000 } },
  });
  try {
    const t0 = performance.now();
    core.app.agent.start();
    const err = await core.waitFor(isError, 'the first error');
    const paused = await core.waitFor(
      (e) => e.type === 'state_changed' && e.to === 'PAUSED',
      'the auto-pause',
      { timeoutMs: 20_000 },
    );
    const failures = core.events.filter((x) => isError(x.e)).length;
    // The user fixes the address (here: the provider is rebuilt with a reachable one) and resumes.
    const fixedAt = performance.now();
    swapProvider(core.app.agent, createProvider({ ...core.app.config, baseURL: core.server.url }));
    core.server.setDefault({ kind: 'stream', content: 'Reachable now. [WAIT]' });
    core.app.agent.send({ type: 'resume' });
    const ok = await core.waitFor(isOkEnd, 'a successful turn after the fix');
    const inMemory = internalsOf(core.app.agent).history.messages();
    await core.close();
    return {
      fault: 'unresolvable host',
      survived: true,
      dataLost: await lostFromDisk(core.home, inMemory),
      detectMs: Math.round(err.t - t0),
      recoverMs: null,
      message: visibleText(err.e) ?? '',
      detail: `kept retrying with back-off (${failures} failures), auto-paused after ${Math.round(paused.t - t0)} ms with "${visibleText(paused.e) ?? ''}"; after the address was fixed and autonomy resumed, working again in ${Math.round(ok.t - fixedAt)} ms (backoff shortened to 250–1000 ms for this run)`,
    };
  } finally {
    core.home.cleanup();
  }
}
