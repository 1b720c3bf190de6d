/**
 * Private mode end to end: the real agent (machine, pipeline, tools, history) driving the
 * local provider on a tiny random-weight GGUF. A grammar makes the model "call" ls(".");
 * the tool runs and its result is in the next prompt. Interrupts land within 50 ms, and a
 * bad model file is an error the agent survives.
 */
import { swapProvider, internalsOf } from '../helpers/agentInternals.js';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { ChatMessage } from '../../src/core/messages.js';
import {
  createLocalProvider,
  type LocalProvider,
  type LocalProviderOptions,
} from '../../src/providers/local/localProvider.js';
import type { Provider } from '../../src/providers/types.js';
import { createHarness, type Harness } from '../helpers/agentHarness.js';
import { writeTinyGguf } from '../helpers/tinyGguf.js';
import { waitForStore, waitUntil } from '../helpers/waitFor.js';

const CALL_GRAMMAR = 'root ::= [a-z]{1,6} "\\n[TOOL] ls(\\".\\") [/TOOL]"';
// Bounded (llama.cpp caps one repetition at 2000) but far longer than the test waits for.
const LONG_GRAMMAR = 'root ::= chunk{40}\nchunk ::= [a-z ]{50}';

let dir: string;
let modelPath: string;
let harness: Harness | undefined;
const providers: LocalProvider[] = [];

/** The real local provider, with every request's messages recorded. */
function recordedLocal(opts: Partial<LocalProviderOptions>): {
  provider: Provider;
  requests: ChatMessage[][];
} {
  const local = createLocalProvider({
    modelPath,
    gpu: 'off',
    threads: 1,
    // The system prompt is ~5k tokens with this byte-level vocabulary.
    contextSize: 8192,
    ...opts,
  });
  providers.push(local);
  const requests: ChatMessage[][] = [];
  return {
    requests,
    provider: {
      id: local.id,
      model: local.model,
      stream(request) {
        requests.push(request.messages);
        return local.stream(request);
      },
    },
  };
}

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'cogito-local-agent-'));
  modelPath = path.join(dir, 'tiny.gguf');
  await writeTinyGguf(modelPath);
});

afterEach(async () => {
  await harness?.dispose();
  harness = undefined;
});

afterAll(async () => {
  for (const p of providers) await p.dispose();
  await rm(dir, { recursive: true, force: true });
});

describe('local provider in the agent', () => {
  it('runs a full turn: the model calls ls("."), the tool runs, its result is in the next prompt', async () => {
    harness = await createHarness();
    const h = harness;
    await writeFile(path.join(h.workspaceDir, 'notes.txt'), 'remember the milk\n');
    await writeFile(path.join(h.workspaceDir, 'plan.md'), '# plan\n');
    const { provider, requests } = recordedLocal({ grammar: CALL_GRAMMAR });
    swapProvider(h.agent, provider);
    let textDeltas = 0;
    h.agent.subscribe((e) => {
      if (e.type === 'message_update') textDeltas += 1;
    });

    h.agent.start();
    h.agent.send({ type: 'submit', text: 'What is in the workspace?' });

    const state = await waitForStore(
      h.agent.store,
      (s) => s.toolLog.some((t) => t.name === 'ls' && t.status !== 'running'),
      'the ls call to finish',
      15_000,
    );
    const ls = state.toolLog.find((t) => t.name === 'ls');
    expect(ls?.status).toBe('ok');
    expect(ls?.call).toBe('ls(".")');
    expect(textDeltas, 'the reply streamed into the pane token by token').toBeGreaterThan(5);

    // The agent goes on thinking: its next prompt carries the tool's result.
    const next = await waitUntil(() => requests[1], 'the next model request', 15_000);
    const saved = h.agent.store.getState().messages;
    const reply = saved.find((m) => m.role === 'assistant');
    expect(reply?.content).toMatch(/^[a-z]{1,6}\n\[TOOL\] ls\("\."\) \[\/TOOL\]$/);
    expect(saved.find((m) => m.role === 'tool')?.content).toContain('notes.txt');
    const lastUser = next.filter((m) => m.role === 'user').at(-1)?.content ?? '';
    expect(lastUser).toContain('notes.txt');
    expect(lastUser).toContain('plan.md');
    expect(next.some((m) => m.role === 'assistant' && m.content.includes('[TOOL] ls("."'))).toBe(
      true,
    );
    expect(requests[0]?.at(-1)).toEqual({ role: 'user', content: 'What is in the workspace?' });
  });

  it('stops a generation mid-stream and is AWAITING_INPUT, stream ended, within 50 ms', async () => {
    harness = await createHarness();
    const h = harness;
    const { provider } = recordedLocal({ grammar: LONG_GRAMMAR });
    swapProvider(h.agent, provider);

    h.agent.send({ type: 'submit', text: 'Write a long story.' });
    await waitForStore(
      h.agent.store,
      (s) => s.liveReply.length >= 20,
      'the reply to be streaming',
      15_000,
    );

    const started = performance.now();
    expect(h.agent.send({ type: 'interrupt' }).ok).toBe(true);
    await h.agent.idle();
    const elapsed = performance.now() - started;

    expect(h.agent.state).toBe('AWAITING_INPUT');
    expect(elapsed).toBeLessThan(50);
    const partial = h.agent.store.getState().messages.find((m) => m.role === 'assistant');
    expect(partial?.interrupted).toBe(true);
    expect(partial?.content.length).toBeGreaterThanOrEqual(20);
    expect(partial?.content.length).toBeLessThan(2000);
  });

  it('reports a missing model file clearly, and the rest of Cogito keeps working', async () => {
    harness = await createHarness({ settings: { maxConsecutiveFailures: 1 } });
    const h = harness;
    const remote = internalsOf(h.agent).provider;
    const missing = path.join(dir, 'missing.gguf');
    const { provider } = recordedLocal({ modelPath: missing });
    swapProvider(h.agent, provider);

    h.agent.send({ type: 'submit', text: 'hello' });
    const failed = await waitForStore(
      h.agent.store,
      (s) => s.notices.some((n) => n.level === 'error'),
      'the error notice',
    );
    const notice = failed.notices.find((n) => n.level === 'error')?.text ?? '';
    expect(notice).toContain(missing);
    expect(notice).toContain('does not exist');
    expect(notice).toContain('"modelPath"');
    await waitForStore(h.agent.store, (s) => s.machine === 'PAUSED', 'the pause after failing');
    await h.agent.idle();

    // Switching back to a remote model works as before.
    h.server.push({ kind: 'stream', content: 'All good. [WAIT]' });
    swapProvider(h.agent, remote);
    h.agent.send({ type: 'submit', text: 'are you there?' });
    const answered = await waitForStore(
      h.agent.store,
      (s) => s.messages.some((m) => m.role === 'assistant' && m.content.includes('All good.')),
      'the remote reply',
    );
    expect(answered.machine).toBe('PAUSED');
  });
});
