/**
 * toolCalls: how often a model's tool calls run on the first try, and how the shared corpus of
 * reply styles (test/fixtures/protocol-corpus.ts) is read.
 *
 * 1. Always: every corpus style through the parser and the real tool registry, counted as
 *    run / answered with a corrective error / text.
 * 2. When a local GGUF model is present: the model answers a set of tasks with the real
 *    system prompt, one reply each, and each reply is classified: its calls all run (in the
 *    canonical form, or read from another form), some need a correction, or no call at all.
 *    "Before" counts only canonical calls, as the parser read them before issue 25.
 *
 * The model file: `--model PATH`, else `COGITO_BENCH_MODEL`, else the first `.gguf` in the
 * app home's `models/` folder (where `cogito --download-model` puts it; see docs/LOCAL.md).
 * Without one, part 2 is skipped with a message. Run: npx tsx bench/toolCalls.ts [--model P]
 */
import fs from 'node:fs';
import path from 'node:path';
import { appPaths, resolveHome } from '../src/config/paths.js';
import { buildSystemPrompt } from '../src/prompt/systemPrompt.js';
import { formatCall } from '../src/protocol/format.js';
import { parseReply } from '../src/protocol/parser.js';
import { resolveCall } from '../src/protocol/resolve.js';
import { createLocalProvider } from '../src/providers/local/localProvider.js';
import { createFileTools } from '../src/tools/files/index.js';
import { ToolRegistry } from '../src/tools/registry.js';
import { createSystemTools } from '../src/tools/system/index.js';
import { PROTOCOL_CORPUS } from '../test/fixtures/protocol-corpus.js';
import { mainFor, type Bench, type BenchResult, type Metric } from './lib/report.js';

const registry = new ToolRegistry([...createFileTools(), ...createSystemTools()]);

/** What one reply amounts to for the agent. */
type Outcome = 'runs' | 'runs, read from another form' | 'needs a correction' | 'no call';

/** Classifies a reply as the tool runner will see it. */
export function classify(reply: string): { outcome: Outcome; calls: string[]; forms: string[] } {
  const calls: string[] = [];
  const forms: string[] = [];
  let bad = false;
  let noted = false;
  for (const parsed of parseReply(reply).items) {
    const item = resolveCall(parsed, registry.get(parsed.name ?? ''));
    if (item.type === 'malformed' || registry.validate(item.name, item.args) !== undefined) {
      bad = true;
      calls.push(item.type === 'malformed' ? `✗ ${item.error.slice(0, 80)}` : `✗ ${item.name}`);
      continue;
    }
    calls.push(formatCall(item.name, item.args));
    if (item.readAs !== undefined) {
      noted = true;
      forms.push(...item.readAs);
    }
  }
  if (calls.length === 0) return { outcome: 'no call', calls, forms };
  if (bad) return { outcome: 'needs a correction', calls, forms };
  return { outcome: noted ? 'runs, read from another form' : 'runs', calls, forms };
}

/** Tasks a user gives in a fresh workspace; each one needs a tool call to answer. */
const TASKS = [
  'Read notes.md and tell me what is in it.',
  'What files are in the workspace?',
  'Search the workspace for the word TODO.',
  'Create a file called plan.md containing the line "buy tea".',
  'Read lines 2 to 4 of notes.md.',
  'Find all Markdown files.',
  '读一下 笔记.md 的内容。',
  'Make a folder called archive.',
  'Rename draft.txt to final.txt.',
  'Create todo.md with a checklist of three items, one per line.',
  'Is there a file that mentions "invoice"? Search for it.',
  'Show me the first 10 lines of README.md.',
];

/** The corpus, read as the agent reads it. */
function corpusMetrics(): { metrics: Metric[]; rows: Record<string, string> } {
  const rows: Record<string, string> = {};
  let run = 0;
  let answered = 0;
  let text = 0;
  for (const entry of PROTOCOL_CORPUS) {
    const { outcome, calls } = classify(entry.reply);
    rows[entry.style] = `${outcome}: ${calls.join('; ').slice(0, 120)}`;
    if (outcome === 'no call') text += 1;
    else if (outcome === 'needs a correction') answered += 1;
    else run += 1;
  }
  const metrics: Metric[] = [
    { name: 'corpus styles', value: `${PROTOCOL_CORPUS.length}`, raw: PROTOCOL_CORPUS.length },
    { name: 'corpus: calls run', value: `${run}`, raw: run },
    { name: 'corpus: corrective error', value: `${answered}`, raw: answered },
    { name: 'corpus: text (code, prose)', value: `${text}`, raw: text },
  ];
  return { metrics, rows };
}

/** The local model file to use, or undefined. */
function findModel(argv: readonly string[]): string | undefined {
  const flag = argv.indexOf('--model');
  if (flag !== -1 && argv[flag + 1] !== undefined) return path.resolve(argv[flag + 1]!);
  const fromEnv = process.env.COGITO_BENCH_MODEL?.trim();
  if (fromEnv) return path.resolve(fromEnv);
  const dir = appPaths(resolveHome({ env: process.env }).home).models;
  const found = fs.existsSync(dir)
    ? fs.readdirSync(dir).find((f) => f.endsWith('.gguf'))
    : undefined;
  return found === undefined ? undefined : path.join(dir, found);
}

async function modelMetrics(modelPath: string): Promise<{ metrics: Metric[]; replies: unknown[] }> {
  const provider = createLocalProvider({
    modelPath,
    gpu: 'auto',
    contextSize: 8192,
    temperature: 0,
  });
  const system = buildSystemPrompt({
    workspaceRoot: '/home/user/workspace',
    toolList: registry.describeForPrompt(),
    language: 'en',
  });
  const counts: Record<Outcome, number> = {
    runs: 0,
    'runs, read from another form': 0,
    'needs a correction': 0,
    'no call': 0,
  };
  const replies: unknown[] = [];
  try {
    for (const task of TASKS) {
      let text = '';
      const signal = new AbortController().signal;
      const messages = [
        { role: 'system' as const, content: system },
        { role: 'user' as const, content: task },
      ];
      for await (const e of provider.stream({ messages, signal, maxTokens: 400 })) {
        if (e.type === 'text_delta') text += e.text;
        if (e.type === 'done' && e.reason === 'error')
          text += `\n[error: ${e.error?.message ?? ''}]`;
      }
      const c = classify(text);
      counts[c.outcome] += 1;
      replies.push({
        task,
        outcome: c.outcome,
        calls: c.calls,
        forms: c.forms,
        reply: text.slice(0, 600),
      });
      process.stderr.write(`  ${c.outcome}: ${task}\n`);
    }
  } finally {
    await provider.dispose();
  }
  const n = TASKS.length;
  const pct = (k: number): string => `${Math.round((100 * k) / n)}% (${k}/${n})`;
  const now = counts.runs + counts['runs, read from another form'];
  return {
    replies,
    metrics: [
      { name: 'model: calls run on the first try', value: pct(now), raw: now / n },
      {
        name: 'model: of which read from another form',
        value: pct(counts['runs, read from another form']),
      },
      {
        name: 'model: before issue 25 (canonical only)',
        value: pct(counts.runs),
        raw: counts.runs / n,
      },
      { name: 'model: needs a correction', value: pct(counts['needs a correction']) },
      { name: 'model: no call', value: pct(counts['no call']) },
    ],
  };
}

export const toolCalls: Bench = {
  name: 'toolCalls',
  async run(): Promise<BenchResult> {
    const corpus = corpusMetrics();
    const metrics = [...corpus.metrics];
    const notes: string[] = [];
    const details: Record<string, unknown> = { corpus: corpus.rows };
    const modelPath = findModel(process.argv.slice(2));
    if (modelPath === undefined || !fs.existsSync(modelPath)) {
      const message =
        `no local model file${modelPath === undefined ? '' : ` at ${modelPath}`}: the model part ` +
        'was skipped. Pass --model /path/model.gguf, set COGITO_BENCH_MODEL, or run ' +
        '`cogito --download-model small` (docs/LOCAL.md).';
      process.stderr.write(`toolCalls: ${message}\n`);
      notes.push(message);
    } else {
      const model = await modelMetrics(modelPath);
      metrics.push(...model.metrics);
      details.model = path.basename(modelPath);
      details.replies = model.replies;
      notes.push(
        `model ${path.basename(modelPath)}, temperature 0, one reply per task, ${TASKS.length} tasks.`,
      );
    }
    return {
      name: 'toolCalls',
      title: 'tool calls read and run on the first try',
      metrics,
      details,
      notes,
    };
  },
};

await mainFor(toolCalls, import.meta.url);
