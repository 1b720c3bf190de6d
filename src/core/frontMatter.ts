/**
 * The front matter of a SKILL.md or a persona file: the YAML between two `---` lines at the
 * top. Skills in the wild use a little more YAML than persona headers do (a folded `description: >` block, a
 * nested `metadata:` map, `allowed-tools` lists), so this reader takes top-level `key: value`
 * lines, block scalars (`>` and `|`) and indented continuation lines, and skips nested maps
 * and lists it does not need. Anything else is reported with its line, never thrown.
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
  let key: string | undefined;
  let block: 'fold' | 'keep' | 'plain' | 'skip' | undefined;
  const parts: string[] = [];
  const flush = (): void => {
    // An empty value followed by indented lines: a nested map or list (skipped), or a plain
    // value wrapped onto the next lines.
    if (block === 'skip' && parts.length > 0 && !parts.some((p) => /^(-\s|[\w-]+:)/.test(p)))
      block = 'plain';
    if (key !== undefined && block !== 'skip') {
      const joined = block === 'keep' ? parts.join('\n') : parts.join(' ');
      fields[key] = joined.trim();
    }
    key = undefined;
    block = undefined;
    parts.length = 0;
  };
  for (let i = start + 1; i < lines.length; i++) {
    const raw = lines[i] ?? '';
    if (raw.trim() === '---') {
      flush();
      return {
        ok: true,
        fields,
        body: lines
          .slice(i + 1)
          .join('\n')
          .trim(),
      };
    }
    if (raw.trim() === '' || raw.trim().startsWith('#')) continue;
    // An indented line continues the key above it (a block scalar, a wrapped value, or a
    // nested map or list, which is skipped).
    if (/^\s/.test(raw)) {
      if (key === undefined) {
        return {
          ok: false,
          problem: `has an indented front-matter line with no key above it (line ${i + 1})`,
        };
      }
      parts.push(raw.trim());
      continue;
    }
    flush();
    const colon = raw.indexOf(':');
    if (colon <= 0) {
      return {
        ok: false,
        problem: `has a front-matter line that is not "key: value" (line ${i + 1}: ${JSON.stringify(raw.trim())})`,
      };
    }
    key = raw.slice(0, colon).trim();
    const value = raw.slice(colon + 1).trim();
    if (value === '>' || value === '>-') block = 'fold';
    else if (value === '|' || value === '|-') block = 'keep';
    else if (value === '') block = 'skip';
    else {
      block = 'plain';
      parts.push(unquote(value));
    }
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
