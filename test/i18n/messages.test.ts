import { describe, expect, it } from 'vitest';
import {
  detectLanguage,
  interpolate,
  messages,
  placeholders,
  resolveLanguage,
  t,
} from '../../src/i18n/messages.js';

const en: Record<string, string> = messages.en;
const zh: Record<string, string> = messages.zh;

describe('message table parity', () => {
  it('has the same keys in English and Chinese', () => {
    expect(Object.keys(zh).sort()).toEqual(Object.keys(en).sort());
  });

  it('has no empty strings', () => {
    for (const [lang, table] of Object.entries({ en, zh })) {
      for (const [key, value] of Object.entries(table)) {
        expect(value.trim(), `${lang}.${key}`).not.toBe('');
      }
    }
  });

  it('uses the same {placeholders} for every key', () => {
    for (const key of Object.keys(en)) {
      expect(placeholders(zh[key] ?? '').sort(), key).toEqual(placeholders(en[key] ?? '').sort());
    }
  });

  it('translates into Chinese (not left in English) except for names and formats', () => {
    const sameOnPurpose = new Set([
      'app.name',
      'status.cycleOf',
      'status.cycleUnlimited',
      'setup.invalid',
      // A path and a place name in Chinese brackets: nothing to translate.
      'reason.placeNamed',
    ]);
    for (const key of Object.keys(en)) {
      if (sameOnPurpose.has(key)) continue;
      expect(zh[key], key).toMatch(/\p{Script=Han}/u);
    }
  });

  it('covers the states, panes and every slash command', () => {
    for (const s of ['THINKING', 'AWAITING_INPUT', 'PAUSED', 'AWAITING_APPROVAL'])
      expect(en[`state.${s}`]).toBeDefined();
    for (const p of ['reasoning', 'conversation', 'tools', 'input'])
      expect(en[`pane.${p}`]).toBeDefined();
    const commands =
      'help stop pause resume new compact sessions persona model tools trace approve clear exit';
    for (const c of commands.split(' ')) expect(en[`command.${c}`], c).toBeDefined();
  });
});

describe('t', () => {
  it('fills placeholders in either language', () => {
    expect(t('en', 'approval.prompt', { tool: 'delete' })).toBe(
      'Allow delete? y = yes, n = no, a = always for this run',
    );
    expect(t('zh', 'approval.prompt', { tool: 'delete' })).toContain('允许 delete 吗');
    expect(t('en', 'pause.tokenBudget', { used: 1200, limit: 1000 })).toContain(
      '1200 tokens used in the last hour, over the budget of 1000',
    );
    expect(t('zh', 'state.PAUSED')).toBe('已暂停');
  });

  it('leaves an unknown or missing placeholder visible', () => {
    expect(interpolate('Hi {name}, {other}', { name: 'Ada' })).toBe('Hi Ada, {other}');
    expect(interpolate('{a}{a}', { a: 1 })).toBe('11');
  });
});

describe('detectLanguage', () => {
  it.each([
    [{ LANG: 'zh_CN.UTF-8' }, 'zh'],
    [{ LANG: 'zh_TW.UTF-8' }, 'zh'],
    [{ LC_ALL: 'zh_CN.UTF-8', LANG: 'en_US.UTF-8' }, 'zh'],
    [{ LC_MESSAGES: 'zh_CN', LANG: 'en_US.UTF-8' }, 'zh'],
    [{ LC_ALL: 'en_US.UTF-8', LANG: 'zh_CN.UTF-8' }, 'en'],
    [{ LC_ALL: 'C.UTF-8', LANG: 'zh_CN.UTF-8' }, 'zh'],
    [{ LANG: 'fr_FR.UTF-8' }, 'en'],
    [{}, 'en'],
  ])('%j → %s', (env, lang) => {
    expect(detectLanguage(env)).toBe(lang);
  });

  it('lets an explicit setting win over the locale', () => {
    expect(resolveLanguage('en', { LANG: 'zh_CN.UTF-8' })).toBe('en');
    expect(resolveLanguage('auto', { LANG: 'zh_CN.UTF-8' })).toBe('zh');
  });
});
