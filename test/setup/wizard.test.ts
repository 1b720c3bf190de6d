import { describe, expect, test } from 'vitest';
import { PRESETS, presetById, presetForBaseURL, type PresetId } from '../../src/setup/presets.js';
import {
  STEPS,
  progress,
  startWizard,
  stepToFix,
  stepsFor,
  wizardReducer,
  type Answers,
  type WizardEvent,
  type WizardState,
} from '../../src/setup/wizard.js';

const answers = (over: Partial<Answers> = {}): Answers => ({
  language: 'en',
  presetId: undefined,
  baseURL: '',
  apiKey: '',
  model: '',
  modelPath: '',
  persona: 'assistant',
  ...over,
});

const run = (state: WizardState, ...events: WizardEvent[]): WizardState =>
  events.reduce(wizardReducer, state);

describe('the presets', () => {
  test('every preset has a unique id, both labels and a usable address', () => {
    const ids = PRESETS.map((p) => p.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const p of PRESETS) {
      expect(p.label.en.trim()).not.toBe('');
      expect(p.label.zh.trim()).not.toBe('');
      if (p.kind === 'custom' || p.kind === 'gguf' || p.kind === 'download')
        expect(p.baseURL).toBe('');
      else expect(new URL(p.baseURL).protocol).toMatch(/^https?:$/);
    }
  });

  test('local servers sit on their usual ports and need no key', () => {
    const local = PRESETS.filter((p) => p.kind === 'local-server');
    expect(local.map((p) => [p.id, p.port, p.key])).toEqual([
      ['ollama', 11434, 'none'],
      ['lmstudio', 1234, 'none'],
      ['llamacpp', 8080, 'none'],
    ]);
    for (const p of local) expect(p.baseURL).toBe(`http://127.0.0.1:${p.port}/v1`);
    for (const id of ['deepseek', 'openai', 'qwen', 'moonshot'] as const)
      expect(presetById(id).key).toBe('required');
  });

  test('a saved address finds its preset', () => {
    expect(presetForBaseURL('https://api.deepseek.com/v1/')?.id).toBe('deepseek');
    expect(presetForBaseURL('http://localhost:11434/v1')?.id).toBe('ollama');
    expect(presetForBaseURL('https://example.com/v1')).toBeUndefined();
    expect(presetForBaseURL('')).toBeUndefined();
  });
});

describe('the step machine', () => {
  const expected: Record<PresetId, string> = {
    private: 'language provider download test persona confirm',
    deepseek: 'language provider apiKey model test persona confirm',
    openai: 'language provider apiKey model test persona confirm',
    qwen: 'language provider apiKey model test persona confirm',
    moonshot: 'language provider apiKey model test persona confirm',
    ollama: 'language provider model test persona confirm',
    lmstudio: 'language provider model test persona confirm',
    llamacpp: 'language provider model test persona confirm',
    custom: 'language provider baseUrl apiKey model test persona confirm',
    gguf: 'language provider modelPath test persona confirm',
  };
  test.each(PRESETS.map((p) => p.id))('%s asks only what it leaves open', (id) => {
    expect(stepsFor(answers({ presetId: id })).join(' ')).toBe(expected[id]);
  });

  test('next walks every applicable step in order, then finishes', () => {
    let s = startWizard(answers());
    const seen: string[] = [];
    const patches: Partial<Answers>[] = [{ language: 'zh' }, { presetId: 'custom' }];
    while (s.status === 'editing') {
      seen.push(s.step);
      const patch = patches.shift();
      s = wizardReducer(s, { type: 'next', ...(patch ? { patch } : {}) });
    }
    expect(seen.join(' ')).toBe(expected.custom);
    expect(s.status).toBe('finished');
    expect(s.answers).toMatchObject({ language: 'zh', presetId: 'custom' });
  });

  test('back goes to the previous applicable step; on the first step it stays', () => {
    const s = run(
      startWizard(answers()),
      { type: 'next' },
      { type: 'next', patch: { presetId: 'ollama' } },
    );
    expect(s.step).toBe('model');
    expect(run(s, { type: 'back' }).step).toBe('provider');
    expect(run(s, { type: 'back' }, { type: 'back' }).step).toBe('language');
    const first = run(s, { type: 'back' }, { type: 'back' }, { type: 'back' });
    expect(first.step).toBe('language');
    expect(first.status).toBe('editing');
  });

  test('choosing another provider forgets the old address, key and model', () => {
    let s = run(
      startWizard(answers()),
      { type: 'next' },
      { type: 'next', patch: { presetId: 'deepseek' } },
      { type: 'next', patch: { apiKey: 'sk-deepseek' } },
      { type: 'next', patch: { model: 'deepseek-chat' } },
    );
    expect(s.answers).toMatchObject({
      baseURL: 'https://api.deepseek.com/v1',
      apiKey: 'sk-deepseek',
    });
    s = run(s, { type: 'goto', step: 'provider' }, { type: 'next', patch: { presetId: 'custom' } });
    expect(s.step).toBe('baseUrl');
    expect(s.answers).toMatchObject({ presetId: 'custom', baseURL: '', apiKey: '', model: '' });
    // The same preset again keeps what was typed for it.
    s = run(
      s,
      { type: 'next', patch: { baseURL: 'http://h:1/v1' } },
      { type: 'goto', step: 'provider' },
    );
    s = run(s, { type: 'next', patch: { presetId: 'custom', baseURL: 'http://h:1/v1' } });
    expect(s.answers.baseURL).toBe('http://h:1/v1');
    // A detected server's address wins over the preset's default.
    s = run(
      s,
      { type: 'back' },
      { type: 'next', patch: { presetId: 'ollama', baseURL: 'http://127.0.0.1:5/v1' } },
    );
    expect(s.answers.baseURL).toBe('http://127.0.0.1:5/v1');
  });

  test('goto only goes back, to a step that applies; anything after the end throws', () => {
    const s = run(
      startWizard(answers()),
      { type: 'next' },
      { type: 'next', patch: { presetId: 'ollama' } },
    );
    expect(() => wizardReducer(s, { type: 'goto', step: 'persona' })).toThrow(
      /cannot go to "persona"/,
    );
    expect(() => wizardReducer(s, { type: 'goto', step: 'apiKey' })).toThrow(
      /cannot go to "apiKey"/,
    );
    const quit = wizardReducer(s, { type: 'quit' });
    expect(quit.status).toBe('quit');
    expect(() => wizardReducer(quit, { type: 'back' })).toThrow(/after the wizard quit/);
  });

  test('an event from a step that is no longer current is stale and ignored', () => {
    const s = run(startWizard(answers()), { type: 'next', from: 'language' });
    expect(s.step).toBe('provider');
    // A second Enter on the language screen, dispatched before the next render.
    expect(wizardReducer(s, { type: 'next', from: 'language' })).toBe(s);
    expect(wizardReducer(s, { type: 'back', from: 'language' })).toBe(s);
    const done = { ...s, status: 'finished' as const };
    expect(wizardReducer(done, { type: 'next', from: 'provider' })).toBe(done);
  });

  test('progress counts the steps that apply', () => {
    const s = run(
      startWizard(answers()),
      { type: 'next' },
      { type: 'next', patch: { presetId: 'gguf' } },
    );
    expect(progress(s)).toEqual({ n: 3, total: 6 });
  });

  test('the step count never changes as the user moves on: no total before the provider', () => {
    for (const presetId of ['deepseek', 'gguf', 'ollama', 'custom'] as const) {
      let s = startWizard(answers());
      const totals: (number | undefined)[] = [progress(s).total];
      s = run(s, { type: 'next' }, { type: 'next', patch: { presetId } });
      while (s.status === 'editing') {
        totals.push(progress(s).total);
        s = wizardReducer(s, { type: 'next' });
      }
      // Unknown on the first two steps, then one number to the end.
      expect(totals.slice(0, 1), presetId).toEqual([undefined]);
      const shown = new Set(totals.slice(1));
      expect(shown.size, `${presetId}: ${totals.join(',')}`).toBe(1);
      expect([...shown][0]).toBeGreaterThan(2);
    }
  });

  test('a failed test sends the user to what needs fixing', () => {
    const ds = answers({ presetId: 'deepseek' });
    const custom = answers({ presetId: 'custom' });
    const ollama = answers({ presetId: 'ollama' });
    expect(stepToFix('bad_key', ds)).toBe('apiKey');
    expect(stepToFix('unreachable', ds)).toBe('provider');
    expect(stepToFix('unreachable', custom)).toBe('baseUrl');
    expect(stepToFix('unknown_model', ollama)).toBe('model');
    expect(stepToFix('bad_file', answers({ presetId: 'gguf' }))).toBe('modelPath');
    expect(stepToFix('other', ollama)).toBe('model');
    expect(stepToFix('bad_key', ollama)).toBe('provider');
    // A kind that does not fit the preset still lands on a step that is asked.
    expect(stepToFix('bad_file', ollama)).toBe('model');
    expect(stepToFix('unknown_model', answers({ presetId: 'gguf' }))).toBe('modelPath');
  });

  test('every step of the table is reachable for some preset', () => {
    const reachable = new Set(PRESETS.flatMap((p) => stepsFor(answers({ presetId: p.id }))));
    expect([...reachable].sort()).toEqual([...STEPS].sort());
  });
});
