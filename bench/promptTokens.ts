/**
 * promptTokens: how much of a small local model's window the fixed part of every request
 * takes: the system prompt with the tool list, per UI language, with the default persona.
 * Counted with gpt-tokenizer (o200k), the counter Cogito itself uses; Qwen2.5's own
 * tokenizer is not available offline, and its counts for this English text are within a
 * few per cent of it. Run: npx tsx bench/promptTokens.ts
 */
import { encode } from 'gpt-tokenizer';
import { loadPersonaSet } from '../src/personas/personaSet.js';
import { buildSystemPrompt } from '../src/prompt/systemPrompt.js';
import { defaultConfig } from '../src/config/schema.js';
import { createFileTools } from '../src/tools/files/index.js';
import { ToolRegistry } from '../src/tools/registry.js';
import { createSystemTools } from '../src/tools/system/index.js';
import { createWebTools } from '../src/tools/web/index.js';
import { ROOT } from './lib/appEnv.js';
import { memorySection } from '../src/knowledge/folderMemory.js';
import { MEMORY_LIMITS, entriesBytes } from '../src/knowledge/memoryFile.js';
import { mainFor, type Bench, type BenchResult, type Metric } from './lib/report.js';

/** The smallest context the local provider is used with (the catalogue's models: 32k). */
const WINDOW = 8192;

export const promptTokens: Bench = {
  name: 'promptTokens',
  async run(): Promise<BenchResult> {
    const config = defaultConfig();
    const registry = new ToolRegistry([
      ...createFileTools(),
      ...createWebTools({ search: config.search, fetch: config.fetch }),
      ...createSystemTools(),
    ]);
    const tools = registry.describeForPrompt();
    const persona = loadPersonaSet(ROOT, 'assistant').current;
    const metrics: Metric[] = [];
    const details: Record<string, unknown> = { tools: registry.list().length };
    for (const language of ['en', 'zh', undefined] as const) {
      const prompt = buildSystemPrompt({
        workspaceRoot: '/home/user/workspace',
        toolList: tools,
        persona: { name: persona.name, body: persona.prompt },
        ...(language ? { language } : {}),
      });
      const total = encode(prompt).length;
      const label = language ?? 'auto';
      metrics.push({
        name: `system prompt + tools (${label})`,
        value: `${total} tokens (${Math.round((100 * total) / WINDOW)}% of 8k)`,
        raw: total,
      });
      details[label] = { tokens: total, chars: prompt.length };
    }
    const toolTokens = encode(tools).length;
    metrics.push({
      name: 'of which the tool list',
      value: `${toolTokens} tokens`,
      raw: toolTokens,
    });
    // The folder memory (docs/MEMORY.md): a typical five facts, and a memory at its byte cap.
    const fact = (i: number): { date: string; source: string; text: string } => ({
      date: '2026-12-05',
      source: 'user turn',
      text: `Fact ${i}: summaries of the weekly papers go in notes/summaries, one file a week.`,
    });
    const five = encode(memorySection([1, 2, 3, 4, 5].map(fact))).length;
    const atCap: ReturnType<typeof fact>[] = [];
    while (
      entriesBytes([...atCap, fact(atCap.length + 1)]) <= MEMORY_LIMITS.maxBytes &&
      atCap.length < MEMORY_LIMITS.maxEntries
    )
      atCap.push(fact(atCap.length + 1));
    const full = encode(memorySection(atCap)).length;
    metrics.push({
      name: 'folder memory section (5 facts / full)',
      value: `${five} / ${full} tokens`,
      raw: five,
    });
    details.memory = { five, full, fullEntries: atCap.length };
    return {
      name: 'promptTokens',
      title: 'fixed prompt size for a local model',
      metrics,
      details,
      notes: ['gpt-tokenizer o200k counts; the persona is the default "assistant".'],
    };
  },
};

await mainFor(promptTokens, import.meta.url);
