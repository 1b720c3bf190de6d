/**
 * Values that look like secrets whoever configured them: private key blocks and
 * `NAME_KEY=` / `_TOKEN=` / `_PASSWORD=` / `_SECRET=` assignments (what `.env` files hold).
 * Configured keys are matched exactly by the redactor instead.
 */
import { outgoingForms } from './decodings.js';
import { say, type Lang, type MessageKey } from '../i18n/messages.js';

const SHAPES: readonly { re: RegExp; what: MessageKey }[] = [
  { re: /-----BEGIN [A-Z0-9 ]*PRIVATE KEY-----/, what: 'secret.privateKey' },
  {
    re: /\b[A-Za-z0-9_]*(?:KEY|TOKEN|PASSWORD|PASSWD|SECRET)\s*[=:]\s*["']?[^\s"'&]{4,}/i,
    what: 'secret.assignment',
  },
];

/** What secret-looking value `text` carries (in any decoded form), or undefined. */
export function secretShapeIn(
  text: string,
  lang: Lang = 'en',
): { what: string; how: string } | undefined {
  for (const { form, how } of outgoingForms(text)) {
    for (const shape of SHAPES)
      if (shape.re.test(form)) return { what: say(lang, { key: shape.what }), how };
  }
  return undefined;
}
