import { en } from './en.js';
import type { MessageKey } from './en.js';
import { zh } from './zh.js';

export type { MessageKey } from './en.js';

/** The UI languages. */
export type Lang = 'en' | 'zh';

/** The one table of UI strings, per language. */
export const messages = { en, zh } as const;

/** The `{name}` placeholders in a message string (`{n|file|files}` names `n`), as a union. */
type Placeholders<S extends string> = S extends `${string}{${infer P}}${infer Rest}`
  ? (P extends `${infer N}|${string}` ? N : P) | Placeholders<Rest>
  : never;

/** The values a message needs; messages without placeholders take none. */
export type MessageVars<K extends MessageKey> = Record<
  Placeholders<(typeof en)[K]>,
  string | number
>;

type VarsArg<K extends MessageKey> = [Placeholders<(typeof en)[K]>] extends [never]
  ? [vars?: Record<string, never>]
  : [vars: MessageVars<K>];

/**
 * The message `key` in `lang` with its `{placeholders}` filled in. A placeholder with no
 * value stays visible as `{name}` rather than vanishing, so a mistake shows on screen.
 */
export function t<K extends MessageKey>(lang: Lang, key: K, ...[vars]: VarsArg<K>): string {
  const template: string = messages[lang][key] ?? en[key];
  return interpolate(template, vars as Record<string, string | number> | undefined);
}

/** `{name}`, or `{name|one|other}`: the word for the number in `name` (English plurals). */
const PLACEHOLDER = /\{(\w+)(?:\|([^|{}]*)\|([^|{}]*))?\}/g;

/**
 * Replaces `{name}` with `vars.name`, and `{name|one|other}` with `one` when `vars.name` is 1
 * and `other` otherwise (`{count} {count|file|files}` → "1 file", "2 files"); unknown names
 * are left as they are.
 */
export function interpolate(template: string, vars?: Record<string, string | number>): string {
  if (vars === undefined) return template;
  return template.replace(
    PLACEHOLDER,
    (whole, name: string, one: string | undefined, other: string | undefined) => {
      const value = vars[name];
      if (value === undefined) return whole;
      if (one === undefined) return String(value);
      return Number(value) === 1 ? one : (other ?? '');
    },
  );
}

/** The placeholder names in a template, in order of first appearance. */
export function placeholders(template: string): string[] {
  return [...new Set([...template.matchAll(PLACEHOLDER)].map((m) => m[1] ?? ''))];
}

/**
 * The user's language from the locale variables, in POSIX priority order (LC_ALL, then
 * LC_MESSAGES, then LANG): Chinese when the first one set starts with `zh`, else English.
 * `C` and `POSIX` (often forced by scripts and containers) name no language, so they are
 * skipped rather than letting them hide a `LANG=zh_CN.UTF-8` underneath.
 */
export function detectLanguage(env: NodeJS.ProcessEnv = process.env): Lang {
  for (const name of ['LC_ALL', 'LC_MESSAGES', 'LANG'] as const) {
    const value = env[name]?.trim().toLowerCase();
    if (!value || /^(c|posix)([._@]|$)/.test(value)) continue;
    return value.startsWith('zh') ? 'zh' : 'en';
  }
  return 'en';
}

/** The language to show: the config's choice, or the locale's when it is `auto`. */
export function resolveLanguage(
  setting: Lang | 'auto',
  env: NodeJS.ProcessEnv = process.env,
): Lang {
  return setting === 'auto' ? detectLanguage(env) : setting;
}

/**
 * A message not yet put into words: its key and values. Tools and the safety layer return
 * these where the text is shown to the user, so the screen's language is chosen late.
 */
export interface Phrase {
  key: MessageKey;
  vars?: Record<string, string | number>;
}

/** A {@link Phrase} in `lang` (English when the language lacks the key). */
export function say(lang: Lang, phrase: Phrase): string {
  const template: string = messages[lang][phrase.key] ?? en[phrase.key];
  return interpolate(template, phrase.vars);
}
