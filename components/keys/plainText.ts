import { messages, type Lang, type MessageKey } from '../../src/i18n/messages.js';

/** A message picked at run time (a key held in a table), shown as it is, without values. */
export function plainTextFor(lang: Lang, key: MessageKey): string {
  return messages[lang][key] ?? messages.en[key];
}
