/**
 * skillTokens: what the skills cost every request (issue 34). The system prompt as
 * promptTokens counts it, before skills; with the `skill` tool and Cogito's own catalogue
 * (what every user pays); and with a full catalogue (60 skills with 200-character
 * descriptions: the 8,000-byte cap cuts it). Counted with gpt-tokenizer (o200k).
 * Run: npx tsx bench/skillTokens.ts
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { encode } from 'gpt-tokenizer';
import { builtinSkillsDir } from '../src/config/paths.js';
import { defaultConfig } from '../src/config/schema.js';
import { loadPersonaSet } from '../src/personas/personaSet.js';
import { buildSystemPrompt } from '../src/prompt/systemPrompt.js';
import { skillRoots } from '../src/skills/discover.js';
import { SkillLibrary } from '../src/skills/library.js';
import { createSkillTool } from '../src/skills/tool.js';
import { SkillTrust } from '../src/skills/trust.js';
import { createFileTools } from '../src/tools/files/index.js';
import { ToolRegistry } from '../src/tools/registry.js';
import { createSystemTools } from '../src/tools/system/index.js';
import type { Tool } from '../src/tools/types.js';
import { createWebTools } from '../src/tools/web/index.js';
import { ROOT } from './lib/appEnv.js';
import { mainFor, type Bench, type BenchResult, type Metric } from './lib/report.js';

export const skillTokens: Bench = {
  name: 'skillTokens',
  async run(): Promise<BenchResult> {
    const config = defaultConfig();
    const base: Tool[] = [
      ...createFileTools(),
      ...createWebTools({ search: config.search, fetch: config.fetch }),
      ...createSystemTools(),
    ];
    const persona = loadPersonaSet(ROOT, 'assistant').current;
    const tmp = mkdtempSync(path.join(os.tmpdir(), 'cogito-bench-skills-'));
    try {
      const ws = path.join(tmp, 'ws');
      const home = path.join(tmp, 'home');
      mkdirSync(ws);
      mkdirSync(home);
      const trust = new SkillTrust(path.join(tmp, 'trust.json'));
      const prompt = (library?: SkillLibrary): string =>
        buildSystemPrompt({
          workspaceRoot: '/home/user/workspace',
          toolList: new ToolRegistry(
            library ? [...base, createSkillTool(library)] : base,
          ).describeForPrompt(),
          persona: { name: persona.name, body: persona.prompt },
          language: 'en',
          ...(library ? { skills: library.catalogue.text } : {}),
        });
      const roots = (): ReturnType<typeof skillRoots> => skillRoots(ws, home, builtinSkillsDir());
      const before = encode(prompt()).length;
      const own = new SkillLibrary(roots(), ws, trust);
      const withOwn = encode(prompt(own)).length;
      for (let i = 0; i < 60; i++) {
        const dir = path.join(home, 'skills', `skill-${String(i).padStart(2, '0')}`);
        mkdirSync(dir, { recursive: true });
        const description = `Do task number ${i} the way this folder wants it. `
          .repeat(5)
          .slice(0, 200);
        writeFileSync(
          path.join(dir, 'SKILL.md'),
          `---\nname: skill-${String(i).padStart(2, '0')}\ndescription: ${description}\n---\nBody ${i}\n`,
        );
      }
      const full = new SkillLibrary(roots(), ws, trust);
      const withFull = encode(prompt(full)).length;
      const again = prompt(new SkillLibrary(roots(), ws, trust));
      const metrics: Metric[] = [
        { name: 'system prompt, no skills (en)', value: `${before} tokens`, raw: before },
        {
          name: "with the skill tool and Cogito's own catalogue",
          value: `${withOwn} tokens (+${withOwn - before})`,
          raw: withOwn,
        },
        {
          name: `with 60 skills (catalogue capped: ${full.catalogue.listed.length} described, ${full.catalogue.cut.length} named as cut)`,
          value: `${withFull} tokens (+${withFull - before})`,
          raw: withFull,
        },
        {
          name: 'same skills, same prompt bytes',
          value: again === prompt(full) ? 'yes' : 'NO',
          raw: again === prompt(full) ? 1 : 0,
        },
      ];
      return {
        name: 'skillTokens',
        title: 'what the skills catalogue costs every request',
        metrics,
        details: { listed: full.catalogue.listed.length, cut: full.catalogue.cut.length },
        notes: ['gpt-tokenizer o200k counts; the persona is the default "assistant".'],
      };
    } finally {
      rmSync(tmp, { recursive: true, force: true });
    }
  },
};

await mainFor(skillTokens, import.meta.url);
