/**
 * A deliberately tiny front-matter reader: `key: value` lines between two `---` lines at
 * the top of a file. No nesting, lists or multi-line values: persona headers need none,
 * and a full YAML parser would be a dependency for five strings.
 */

export type FrontMatter =
  { ok: true; fields: Record<string, string>; body: string } | { ok: false; problem: string };

export function parseFrontMatter(text: string): FrontMatter {
  const lines = text.replace(/^\uFEFF/, '').split(/\r?\n/);
  let start = 0;
  while (start < lines.length && (lines[start] ?? '').trim() === '') start++;
  if ((lines[start] ?? '').trim() !== '---') {
    return { ok: false, problem: 'has no front matter (the file must start with a --- line)' };
  }
  const fields: Record<string, string> = {};
  for (let i = start + 1; i < lines.length; i++) {
    const line = (lines[i] ?? '').trim();
    if (line === '---') {
      return {
        ok: true,
        fields,
        body: lines
          .slice(i + 1)
          .join('\n')
          .trim(),
      };
    }
    if (line === '' || line.startsWith('#')) continue;
    const colon = line.indexOf(':');
    if (colon <= 0) {
      return {
        ok: false,
        problem: `has a front-matter line that is not "key: value" (line ${i + 1}: ${JSON.stringify(line)})`,
      };
    }
    const key = line.slice(0, colon).trim();
    fields[key] = unquote(line.slice(colon + 1).trim());
  }
  return { ok: false, problem: 'has front matter that is never closed (add a --- line after it)' };
}

/** Strips one pair of matching surrounding quotes, as YAML would. */
function unquote(value: string): string {
  if (value.length >= 2) {
    const first = value[0];
    if ((first === '"' || first === "'") && value.endsWith(first)) return value.slice(1, -1);
  }
  return value;
}
