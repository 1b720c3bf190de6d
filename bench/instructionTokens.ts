/**
 * instructionTokens: what the instruction files add to every request. The system prompt
 * (English, default persona, the full tool list) without instruction files, with the example
 * AGENTS.md of docs/INSTRUCTIONS.md, and with files that fill the default budget
 * (`instructions.maxBytes`, 32 KB), the most they can ever add. Counted with gpt-tokenizer
 * (o200k), the counter Cogito itself uses. Run: npx tsx bench/instructionTokens.ts
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { encode } from 'gpt-tokenizer';
import { loadPersonaSet } from '../src/personas/personaSet.js';
import { buildSystemPrompt } from '../src/prompt/systemPrompt.js';
import { defaultConfig } from '../src/config/schema.js';
import { createFileTools } from '../src/tools/files/index.js';
import { ToolRegistry } from '../src/tools/registry.js';
import { createSystemTools } from '../src/tools/system/index.js';
import { createWebTools } from '../src/tools/web/index.js';
import { InstructionSet } from '../src/instructions/instructionSet.js';
import { Workspace } from '../src/tools/workspace.js';
import { ROOT } from './lib/appEnv.js';
import { mainFor, type Bench, type BenchResult, type Metric } from './lib/report.js';

/** The example of docs/INSTRUCTIONS.md. */
export const EXAMPLE = `# This folder
My household paperwork. Answer in English; dates as 2026-12-05.

- Never touch \`invoices/\`: the accountant's copies.
- Summaries go in \`notes/\`, one file per month (\`notes/2026-12.md\`).
- Scans arrive in \`inbox/\`; rename them \`YYYY-MM-DD what.pdf\` and file them by year.
- Ask before deleting anything, even duplicates.
`;

export const instructionTokens: Bench = {
  name: 'instructionTokens',
  async run(): Promise<BenchResult> {
    const config = defaultConfig();
    const registry = new ToolRegistry([
      ...createFileTools(),
      ...createWebTools({ search: config.search, fetch: config.fetch }),
      ...createSystemTools(),
    ]);
    const persona = loadPersonaSet(ROOT, 'assistant').current;
    const dir = mkdtempSync(path.join(os.tmpdir(), 'cogito-bench-instr-'));
    try {
      const workspace = await Workspace.open(dir);
      const prompt = (instructions?: string): number =>
        encode(
          buildSystemPrompt({
            workspaceRoot: '/home/user/workspace',
            toolList: registry.describeForPrompt(),
            persona: { name: persona.name, body: persona.prompt },
            language: 'en',
            ...(instructions ? { instructions } : {}),
          }),
        ).length;
      const section = (): string =>
        new InstructionSet({
          workspace,
          names: config.instructions.files,
          maxBytes: config.instructions.maxBytes,
        }).prompt();
      const before = prompt();
      writeFileSync(path.join(dir, 'AGENTS.md'), EXAMPLE);
      const example = prompt(section());
      // Ordinary English prose, past the budget: the cut keeps 32 KB and names the rest.
      const line = 'Keep the monthly summaries short and link each one to its source files.\n';
      writeFileSync(path.join(dir, 'AGENTS.md'), line.repeat(1000));
      const full = prompt(section());
      const metrics: Metric[] = [
        { name: 'system prompt, no instruction file (en)', value: `${before} tokens`, raw: before },
        {
          name: 'with the example AGENTS.md (docs/INSTRUCTIONS.md)',
          value: `${example} tokens (+${example - before})`,
          raw: example,
        },
        {
          name: `with files filling the default budget (${config.instructions.maxBytes} bytes)`,
          value: `${full} tokens (+${full - before})`,
          raw: full,
        },
      ];
      return {
        name: 'instructionTokens',
        title: 'what instruction files add to the system prompt',
        metrics,
        details: { before, example, full, maxBytes: config.instructions.maxBytes },
        notes: [
          'gpt-tokenizer o200k counts; the persona is the default "assistant".',
          "A subfolder's file is not in the system prompt: it goes out once, with a tool result.",
        ],
      };
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  },
};

await mainFor(instructionTokens, import.meta.url);
