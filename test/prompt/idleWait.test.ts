/**
 * Issue #42: `[WAIT]` is for a question or a decision that belongs to the user, never for having
 * nothing to do (that parks an always-on agent until someone types). The system prompt and every
 * built-in persona are read here and any sentence that ties `[WAIT]` to a lack of work fails.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { builtinPersonasDir } from '../../src/config/paths.js';
import { buildSystemPrompt } from '../../src/prompt/systemPrompt.js';

/** Words that say "there is no work left", in English and Chinese. */
const IDLE = [
  /nothing (useful|helpful|new|more|else|worth|left|to (do|add|say|report))/i,
  /no(thing| more)? (useful )?(work|task|lead|idea)s? (left|remain)/i,
  /(done|finished|completed?) (everything|all)/i,
  /every (lead|avenue|option|task|idea|question) (is |has been )?(exhausted|done|finished|covered)/i,
  /(leads?|ideas?|work|tasks?) (are |is )?(exhausted|used up|run out)/i,
  /said (your|its|my) piece/i,
  /(summary|review|work|task|job|report) is (complete|done|finished)/i,
  /run out of (things|work|ideas)/i,
  /idle|for now|at the moment|right now/i,
  /无事可做|没有(什么|更多)?(可做|要做|有用|值得|新的|可说|可以补充)|无话可说|已经?(做|完成)完?了?(所有|一切)|线索[都已]*(用尽|穷尽)|暂时没有|空闲|无所事事/,
];

/** Words that keep `[WAIT]` out of the sentence's advice ("simply end, no [WAIT]"). */
const NEGATED =
  /\b(never|not|no|without|instead of)\b[^.;:]{0,20}\[WAIT\]|不要.{0,6}\[WAIT\]|无需.{0,6}\[WAIT\]/i;

/** A sentence that refers back to the one before it ("… is exhausted. Then end with [WAIT]"). */
const BACK_REFERENCE = /^(then|so|in that case|if so|at that point|那就|那么|这时|此时|然后)\b/i;

/** Sentences and clauses, split on Western and Chinese end marks, semicolons and line breaks. */
function sentences(text: string): string[] {
  return text
    .split(/(?<=[.!?;。！？；])\s+|(?<=[。！？；])|\n+/)
    .map((s) => s.replace(/^[-*•\s]+/, '').trim())
    .filter((s) => s !== '');
}

/** The sentences that tell the model to `[WAIT]` for lack of work. */
function idleWaitInstructions(text: string): string[] {
  const all = sentences(text);
  const found: string[] = [];
  all.forEach((s, i) => {
    if (!s.includes('[WAIT]') || NEGATED.test(s)) return;
    const before = i > 0 && BACK_REFERENCE.test(s) ? all[i - 1]! : '';
    if (IDLE.some((re) => re.test(s) || re.test(before))) found.push(s);
  });
  return found;
}

function personaFiles(): string[] {
  const dir = builtinPersonasDir();
  return readdirSync(dir)
    .filter((f) => f.endsWith('.md'))
    .map((f) => path.join(dir, f));
}

describe('no instruction to [WAIT] for lack of work', () => {
  it('catches the wordings #42 found, in English and Chinese', () => {
    const bad = [
      "End your reply with [WAIT] only when you need the user's answer or have nothing useful left to do; then you stop until the user writes.",
      'End with [WAIT] when a decision belongs to the user, or when you have done everything useful for now.',
      'End with [WAIT] when you are ready to present your conclusion, or when every lead is exhausted.',
      'Use [WAIT] readily, whenever you have said your piece or there is nothing useful to add.',
      'If a cycle brings nothing worth saying, say so in a few words and end with [WAIT].',
      'End with [WAIT] when a summary is complete.',
      'Every lead is exhausted. Then end with [WAIT].',
      '如果没有可做的事情，就以 [WAIT] 结束。',
      '线索都已穷尽时，写 [WAIT]。',
      'When you are idle, write [WAIT].',
    ];
    for (const s of bad) expect(idleWaitInstructions(s), s).not.toEqual([]);
  });

  it('lets [WAIT] stand for a question or a decision, and resting be named without it', () => {
    const good = [
      'End with [WAIT] when a decision belongs to the user or you need a fact only they know.',
      'When you are done for now, simply end your reply: resting costs nothing.',
      'Never write [WAIT] when there is nothing left to do; simply end your reply.',
      '需要用户回答时，以 [WAIT] 结束。',
    ];
    for (const s of good) expect(idleWaitInstructions(s), s).toEqual([]);
  });

  it('the system prompt keeps [WAIT] for the user and says resting costs nothing', () => {
    const prompt = buildSystemPrompt({ workspaceRoot: '/w', toolList: '- ls(path)' });
    expect(idleWaitInstructions(prompt)).toEqual([]);
    expect(prompt).toContain('[WAIT] only when the user must answer or decide something');
    expect(prompt).toMatch(/resting costs nothing, and you will be woken/);
  });

  it('all 13 personas keep [WAIT] for the user', () => {
    const files = personaFiles();
    expect(files).toHaveLength(13);
    for (const file of files) {
      const text = readFileSync(file, 'utf8');
      expect(idleWaitInstructions(text), path.basename(file)).toEqual([]);
      expect(text, path.basename(file)).toContain('[WAIT]');
    }
  });
});
