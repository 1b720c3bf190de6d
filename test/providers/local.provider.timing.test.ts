/**
 * The local provider against a real (tiny, random-weight) GGUF model loaded by the real
 * node-llama-cpp CPU binary: streaming, grammar-constrained output, the model's own chat
 * template, usage, aborts, and the errors for a missing runtime or a bad model file.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChatMessage } from '../../src/core/messages.js';
import {
  createLocalProvider,
  type LocalProvider,
  type LocalProviderOptions,
} from '../../src/providers/local/localProvider.js';
import type { ProviderEvent } from '../../src/providers/types.js';
import { collectEvents } from '../helpers/collectEvents.js';
import { writeTinyGguf } from '../helpers/tinyGguf.js';

/**
 * A template in the GGUF, so "the model's own template" can be seen to be used. Only one
 * test uses it: node-llama-cpp spends ~1.5 s probing a template when it loads the model.
 */
const TEMPLATE =
  "{% for message in messages %}{{ '<|' + message['role'] + '|>\\n' + message['content'] + '<|end|>\\n' }}{% endfor %}" +
  "{% if add_generation_prompt %}{{ '<|assistant|>\\n' }}{% endif %}";
const CALL_GRAMMAR = 'root ::= [a-z]{1,6} "\\n[TOOL] ls(\\".\\") [/TOOL]"';
// Bounded (llama.cpp caps one repetition at 2000) but far longer than any test waits for.
const LONG_GRAMMAR = 'root ::= chunk{40}\nchunk ::= [a-z ]{50}';

const MESSAGES: ChatMessage[] = [
  { role: 'system', content: 'You are a test model.' },
  { role: 'user', content: 'List the workspace.' },
];

let dir: string;
let modelPath: string;
let templatedPath: string;
const providers: LocalProvider[] = [];

function provider(opts: Partial<LocalProviderOptions> = {}): LocalProvider {
  const p = createLocalProvider({
    modelPath,
    gpu: 'off',
    threads: 1,
    contextSize: 2048,
    ...opts,
  });
  providers.push(p);
  return p;
}

function stream(p: LocalProvider, signal = new AbortController().signal, messages = MESSAGES) {
  return p.stream({ messages, signal });
}

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'cogito-local-'));
  modelPath = path.join(dir, 'tiny.gguf');
  templatedPath = path.join(dir, 'templated.gguf');
  await writeTinyGguf(modelPath);
  await writeTinyGguf(templatedPath, { chatTemplate: TEMPLATE });
});

afterAll(async () => {
  for (const p of providers) await p.dispose();
  await rm(dir, { recursive: true, force: true });
});

describe('local provider: generation', () => {
  it('streams a grammar-constrained reply chunk by chunk and ends with usage and stop', async () => {
    const p = provider({ grammar: CALL_GRAMMAR });
    const got = await collectEvents(stream(p));
    expect(got.done).toEqual({ type: 'done', reason: 'stop' });
    expect(got.text).toMatch(/^[a-z]{1,6}\n\[TOOL\] ls\("\."\) \[\/TOOL\]$/);
    const deltas = got.events.filter((e) => e.type === 'text_delta');
    expect(deltas.length, 'tokens arrive one chunk at a time').toBeGreaterThan(5);
    const usage = got.events.find((e) => e.type === 'usage');
    expect(usage?.type === 'usage' && usage.usage.completionTokens).toBeGreaterThan(5);
    expect(usage?.type === 'usage' && usage.usage.promptTokens).toBeGreaterThan(10);
  });

  it("renders prompts with the model's own chat template and reports what it loaded", async () => {
    const p = provider({ modelPath: templatedPath, grammar: CALL_GRAMMAR });
    expect(p.info()).toBeUndefined();
    expect(p.id).toBe('local');
    expect(p.model).toBe('templated.gguf');
    const opened = await p.warmUp();
    expect(opened.ok).toBe(true);
    expect(p.info()).toMatchObject({
      path: templatedPath,
      chatWrapper: 'JinjaTemplate',
      contextSize: 2048,
      gpu: false,
    });
    const got = await collectEvents(stream(p));
    expect(got.text).toContain('[TOOL] ls(".") [/TOOL]');
  });

  it('answers follow-up turns on the same loaded model', async () => {
    const p = provider({ grammar: CALL_GRAMMAR });
    const first = await collectEvents(stream(p));
    const history: ChatMessage[] = [
      ...MESSAGES,
      { role: 'assistant', content: first.text },
      { role: 'user', content: 'Results:\nnotes.txt' },
    ];
    const second = await collectEvents(stream(p, undefined, history));
    expect(second.done.reason).toBe('stop');
    expect(second.text).toContain('[TOOL] ls(".") [/TOOL]');
  });

  it('keeps the context between turns and evaluates only the new tokens', async () => {
    const p = provider({ grammar: CALL_GRAMMAR });
    const usageOf = (got: Awaited<ReturnType<typeof collectEvents>>) => {
      const u = got.events.find((e) => e.type === 'usage');
      if (u?.type !== 'usage') throw new Error('no usage event');
      return u.usage;
    };
    const first = await collectEvents(stream(p));
    expect(usageOf(first).cachedPromptTokens).toBe(0);
    const history: ChatMessage[] = [
      ...MESSAGES,
      { role: 'assistant', content: first.text },
      { role: 'user', content: 'Results:\nnotes.txt' },
    ];
    const second = usageOf(await collectEvents(stream(p, undefined, history)));
    const fresh = second.promptTokens - (second.cachedPromptTokens ?? 0);
    // The whole first prompt is reused from the KV cache (and most of the reply: the part
    // retokenized differently is evaluated again); only the new part is evaluated.
    expect(second.cachedPromptTokens).toBeGreaterThanOrEqual(usageOf(first).promptTokens);
    expect(fresh).toBeGreaterThan(0);
    expect(fresh).toBeLessThanOrEqual(second.promptTokens - usageOf(first).promptTokens);

    // A prompt that does not extend the previous one is evaluated from where it differs
    // (only the chat wrapper's opening tokens are shared).
    const other: ChatMessage[] = [
      { role: 'system', content: 'A different system prompt.' },
      { role: 'user', content: 'Hi.' },
    ];
    const third = usageOf(await collectEvents(stream(p, undefined, other)));
    expect(third.cachedPromptTokens ?? 0).toBeLessThan(usageOf(first).promptTokens / 2);
  });

  it('ends with length when the request caps the reply', async () => {
    const p = provider({ grammar: LONG_GRAMMAR });
    const got = await collectEvents(
      p.stream({ messages: MESSAGES, signal: new AbortController().signal, maxTokens: 8 }),
    );
    expect(got.done.reason).toBe('length');
    expect(got.text.length).toBeGreaterThan(0);
    expect(got.text.length).toBeLessThanOrEqual(8);
  });
});

describe('local provider: aborts', () => {
  it('ends the stream at once when aborted mid-generation, and the model stays usable', async () => {
    const p = provider({ grammar: LONG_GRAMMAR });
    const controller = new AbortController();
    const events: ProviderEvent[] = [];
    let abortedAt = 0;
    for await (const e of stream(p, controller.signal)) {
      events.push(e);
      if (e.type === 'text_delta' && events.length === 10) {
        abortedAt = performance.now();
        controller.abort();
      }
    }
    const elapsed = performance.now() - abortedAt;
    expect(events.at(-1)).toEqual({ type: 'done', reason: 'aborted' });
    expect(events.filter((e) => e.type === 'done')).toHaveLength(1);
    expect(elapsed).toBeLessThan(50);

    // The next request waits for llama.cpp to stop, then generates normally.
    const next = await collectEvents(
      p.stream({ messages: MESSAGES, signal: new AbortController().signal, maxTokens: 5 }),
    );
    expect(next.done.reason).toBe('length');
  });

  it('ends with aborted, without loading anything, when the signal is already aborted', async () => {
    const p = provider();
    const controller = new AbortController();
    controller.abort();
    const got = await collectEvents(stream(p, controller.signal));
    expect(got.events).toEqual([{ type: 'done', reason: 'aborted' }]);
    expect(p.info()).toBeUndefined();
  });

  it('stops generating when the reader stops early', async () => {
    const p = provider({ grammar: LONG_GRAMMAR });
    for await (const e of stream(p)) {
      if (e.type === 'text_delta') break;
    }
    // Had generation gone on, this would wait for the 2000-char reply to finish.
    const next = await collectEvents(
      p.stream({ messages: MESSAGES, signal: new AbortController().signal, maxTokens: 3 }),
    );
    expect(next.done.reason).toBe('length');
  });
});

describe('local provider: errors', () => {
  it('reports unavailable, naming the fix, when the native binary cannot load', async () => {
    const p = provider({
      loader: async () => {
        throw new Error('libllama.so: cannot open shared object file: No such file or directory');
      },
    });
    const got = await collectEvents(stream(p));
    expect(got.done.reason).toBe('error');
    expect(got.done.error?.kind).toBe('unavailable');
    expect(got.done.error?.message).toContain('libllama.so');
    expect(got.done.error?.message).toContain('npm install');
    expect(got.done.error?.message).toContain('"provider": "openai-compatible"');
  });

  it('reports unavailable when node-llama-cpp is not installed at all', async () => {
    const p = provider({
      loader: async () => {
        throw Object.assign(new Error("Cannot find package 'node-llama-cpp' imported from x"), {
          code: 'ERR_MODULE_NOT_FOUND',
        });
      },
    });
    const got = await collectEvents(stream(p));
    expect(got.done.error?.kind).toBe('unavailable');
    expect(got.done.error?.message).toMatch(/node-llama-cpp is not installed.*npm install/);
  });

  it('reports a missing model file by its path, and loads once the file exists', async () => {
    const later = path.join(dir, 'later.gguf');
    const p = provider({ modelPath: later, grammar: CALL_GRAMMAR });
    const missing = await collectEvents(stream(p));
    expect(missing.done.error?.kind).toBe('not_found');
    expect(missing.done.error?.message).toContain(later);
    expect(missing.done.error?.message).toContain('modelPath');

    await writeTinyGguf(later);
    const fixed = await collectEvents(stream(p));
    expect(fixed.done.reason).toBe('stop');
  });

  it('reports a file that is not a GGUF model', async () => {
    const bogus = path.join(dir, 'model.safetensors');
    await writeFile(bogus, '{"not": "gguf"}');
    const got = await collectEvents(stream(provider({ modelPath: bogus })));
    expect(got.done.error?.kind).toBe('bad_request');
    expect(got.done.error?.message).toContain('is not a GGUF model');
  });

  it('reports a damaged GGUF that llama.cpp cannot load', async () => {
    const broken = path.join(dir, 'broken.gguf');
    const bytes = Buffer.alloc(64);
    bytes.write('GGUF', 0, 'latin1');
    bytes.writeUInt32LE(3, 4);
    bytes.writeBigUInt64LE(99n, 8); // 99 tensors promised, none present
    bytes.writeBigUInt64LE(99n, 16);
    await writeFile(broken, bytes);
    const got = await collectEvents(stream(provider({ modelPath: broken })));
    expect(got.done.error?.kind).toBe('bad_request');
    expect(got.done.error?.message).toMatch(/could not load the model .*broken\.gguf/);
    expect(got.done.error?.message).toContain('download it again');
  });

  it('reports an invalid grammar', async () => {
    const got = await collectEvents(stream(provider({ grammar: 'root ::= (' })));
    expect(got.done.error?.kind).toBe('bad_request');
    expect(got.done.error?.message).toContain('GBNF');
  });
});
