/**
 * The forms data can be smuggled out in: a URL or a request body may carry text as it is,
 * URL-encoded, base64 (standard or URL-safe) or hex. {@link outgoingForms} returns every
 * readable decoding of a string so the read index and the secret scan see through them.
 */

const BASE64_RUN = /[A-Za-z0-9+/_-]{16,}={0,2}/g;
const HEX_RUN = /(?:[0-9a-fA-F]{2}){12,}/g;
const PERCENT_RUN = /(?:%[0-9a-fA-F]{2})+/g;

/** Decodes `%XX` runs, keeping any run that is not valid UTF-8 as written. */
function percentDecode(text: string): string {
  return text.replace(/\+/g, ' ').replace(PERCENT_RUN, (run) => {
    try {
      return decodeURIComponent(run);
    } catch {
      return run;
    }
  });
}

/** Whether decoded bytes read as text (not the noise a misaligned decode gives). */
function readable(text: string): boolean {
  if (text.length < 4) return false;
  let printable = 0;
  for (const ch of text) if (!/[\p{Cc}\uFFFD]/u.test(ch) || /[\n\r\t]/.test(ch)) printable++;
  return printable / text.length > 0.9;
}

function decodeRuns(text: string, run: RegExp, decode: (s: string) => string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(run)) {
    // The data may start part-way into the run (a prefix glued on); try each alignment.
    for (let shift = 0; shift < 4 && shift < m[0].length; shift++) {
      const decoded = decode(m[0].slice(shift));
      if (readable(decoded)) {
        out.push(decoded);
        break;
      }
    }
  }
  return out;
}

/** `text` as written plus every readable decoding of it, for scanning. */
export function outgoingForms(text: string): { form: string; how: string }[] {
  const forms = [{ form: text, how: 'as written' }];
  const unescaped = percentDecode(text);
  if (unescaped !== text) forms.push({ form: unescaped, how: 'URL-encoded' });
  for (const source of new Set([text, unescaped])) {
    for (const form of decodeRuns(source, BASE64_RUN, (s) =>
      Buffer.from(s, 'base64').toString('utf8'),
    )) {
      forms.push({ form, how: 'base64-encoded' });
    }
    for (const form of decodeRuns(source, HEX_RUN, (s) =>
      Buffer.from(s.slice(0, s.length - (s.length % 2)), 'hex').toString('utf8'),
    )) {
      forms.push({ form, how: 'hex-encoded' });
    }
  }
  return forms;
}
