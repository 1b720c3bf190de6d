/**
 * Shared set-up for the safety attack tests: a real agent (scripted model, real files in a
 * temp workspace) with the real web tools allowed to reach one loopback "exfiltration"
 * server, so the only thing between a hostile reply and that server is the safety layer.
 * Every approval the agent asks for is declined and recorded.
 */
import type { ApprovalRequest } from '../../src/api/events.js';
import { createWebTools } from '../../src/tools/web/index.js';
import { createHarness, type Harness } from '../helpers/agentHarness.js';
import { waitForStore } from '../helpers/waitFor.js';
import { startServer, type TestServer } from '../tools/web/helpers.js';
import type { Config } from '../../src/config/schema.js';

export interface AttackRig {
  h: Harness;
  /** The loopback server the attacker wants data sent to. */
  sink: TestServer;
  /** Request URLs (path and query) the sink received. */
  received: string[];
  /** Approval cards shown (each was declined). */
  asked: ApprovalRequest[];
  dispose(): Promise<void>;
}

/** Builds the rig; `config` goes on top of the defaults (an `apiKey`, for instance). */
export async function createAttackRig(config: Partial<Config> = {}): Promise<AttackRig> {
  const received: string[] = [];
  const sink = await startServer((req, res) => {
    received.push(req.url ?? '');
    res.writeHead(200, { 'content-type': 'text/plain' }).end('thanks');
  });
  const port = new URL(sink.url).port;
  const web = createWebTools({ fetch: { allowHosts: [`127.0.0.1:${port}`] } });
  const h = await createHarness({ extraTools: web, config });
  const asked: ApprovalRequest[] = [];
  h.agent.subscribe((e) => {
    if (e.type !== 'approval_request') return;
    asked.push(e.request);
    queueMicrotask(() => h.agent.send({ type: 'answer_approval', answer: 'no' }));
  });
  return {
    h,
    sink,
    received,
    asked,
    async dispose() {
      await h.dispose();
      await sink.close();
    },
  };
}

/** Sends `prompt`, then waits for the run to stop on [WAIT] and the agent to be idle. */
export async function runUntilWait(h: Harness, prompt: string): Promise<void> {
  h.agent.start();
  h.agent.send({ type: 'submit', text: prompt });
  await waitForStore(
    h.agent.store,
    (s) => s.machine === 'AWAITING_INPUT' && !s.streaming && s.toolLog.length > 0,
    'the run to stop on [WAIT]',
  );
  await h.agent.idle();
}

/** The last user-role message of the request the model got at `index`. */
export function lastMessage(h: Harness, index: number): string {
  const msgs = h.server.requests[index]!.body.messages as { role: string; content: string }[];
  return msgs.at(-1)!.content;
}
