/**
 * Secrets never go into the folder memory: it is sent with every request of every later
 * session. A fact is refused when it holds a configured key (the redactor finds it) or
 * anything shaped like one, whoever configured it.
 */

/** Shapes of secrets, each with the words the refusal names it by. */
const SHAPES: readonly { re: RegExp; what: string }[] = [
  { re: /-----BEGIN [A-Z0-9 ]*PRIVATE KEY-----/, what: 'a private key block' },
  {
    re: /\b[A-Za-z0-9_]*(?:KEY|TOKEN|PASSWORD|PASSWD|SECRET)\s*[=:]\s*["']?[^\s"'&]{4,}/i,
    what: 'a key, token or password assignment',
  },
  {
    re: /\b(?:password|passwd|passphrase|pin|\u53E3\u4EE4)\s+(?:is|was|=|:)\s*\S{3,}/i,
    what: 'a password',
  },
  // 密码|口令|密钥 (password, pass phrase, key) then 是|为|:|： (is), as \uXXXX: the bundle
  // stays ASCII (test/build/bundle.test.ts). \u53E3\u4EE4 above is 口令 too.
  {
    re: /(?:\u5BC6\u7801|\u53E3\u4EE4|\u5BC6\u94A5)\s*(?:\u662F|\u4E3A|:|\uFF1A)\s*\S{3,}/,
    what: 'a password',
  },
  {
    re: /\b(?:sk-[A-Za-z0-9_-]{16,}|gh[pousr]_[A-Za-z0-9]{20,}|github_pat_[A-Za-z0-9_]{20,}|glpat-[A-Za-z0-9_-]{16,}|xox[abprs]-[A-Za-z0-9-]{10,}|AKIA[0-9A-Z]{16}|AIza[0-9A-Za-z_-]{30,})/,
    what: 'an API key',
  },
];

/** A long run of letters and digits in both cases: how generated keys and tokens look. */
const RANDOM_RUN = /[A-Za-z0-9+/_-]{24,}/g;

function looksRandom(text: string): boolean {
  for (const m of text.matchAll(RANDOM_RUN)) {
    const run = m[0];
    if (/[a-z]/.test(run) && /[A-Z]/.test(run) && /\d/.test(run)) return true;
  }
  return false;
}

/**
 * What secret `fact` seems to hold, in words for the refusal, or undefined when it looks
 * clean. `redact` is the run's redactor (configured keys); a fact it changes holds one.
 */
export function secretIn(fact: string, redact?: (text: string) => string): string | undefined {
  if (redact !== undefined && redact(fact) !== fact) return 'a configured API key';
  for (const shape of SHAPES) if (shape.re.test(fact)) return shape.what;
  if (looksRandom(fact)) return 'a long random string (a key or token)';
  return undefined;
}
