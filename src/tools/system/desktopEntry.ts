/**
 * Freedesktop desktop entries (`.desktop` files): the `[Desktop Entry]` group's keys and
 * the Exec line turned into an argv array, following the Desktop Entry Specification's
 * quoting rules, so a launcher never needs a shell.
 */

interface DesktopEntry {
  type?: string;
  name?: string;
  /** `Name[xx_YY]` values by locale. */
  localizedNames: Record<string, string>;
  exec?: string;
  noDisplay: boolean;
  hidden: boolean;
  terminal: boolean;
  /** `Path`: the working directory to start in. */
  path?: string;
}

/** Parses the `[Desktop Entry]` group; other groups (actions) and comments are ignored. */
export function parseDesktopEntry(text: string): DesktopEntry {
  const entry: DesktopEntry = {
    localizedNames: {},
    noDisplay: false,
    hidden: false,
    terminal: false,
  };
  let inMain = false;
  for (const rawLine of text.replace(/^\uFEFF/, '').split(/\r?\n/)) {
    const line = rawLine.trim();
    if (line === '' || line.startsWith('#')) continue;
    if (line.startsWith('[')) {
      inMain = line === '[Desktop Entry]';
      continue;
    }
    if (!inMain) continue;
    const eq = line.indexOf('=');
    if (eq <= 0) continue;
    const key = line.slice(0, eq).trim();
    const value = line.slice(eq + 1).trim();
    const localized = /^Name\[([^\]]+)\]$/.exec(key);
    if (localized?.[1]) {
      entry.localizedNames[localized[1]] = unescapeValue(value);
      continue;
    }
    switch (key) {
      case 'Type':
        entry.type = value;
        break;
      case 'Name':
        entry.name = unescapeValue(value);
        break;
      case 'Exec':
        entry.exec = unescapeValue(value);
        break;
      case 'Path':
        entry.path = unescapeValue(value);
        break;
      case 'NoDisplay':
        entry.noDisplay = value === 'true';
        break;
      case 'Hidden':
        entry.hidden = value === 'true';
        break;
      case 'Terminal':
        entry.terminal = value === 'true';
        break;
    }
  }
  return entry;
}

/** The string-value escapes `\s \n \t \r \\`; any other backslash is left for the Exec quoting. */
export function unescapeValue(value: string): string {
  return value.replace(/\\([sntr\\])/g, (_, code: string) =>
    code === 's' ? ' ' : code === 'n' ? '\n' : code === 't' ? '\t' : code === 'r' ? '\r' : '\\',
  );
}

/**
 * Splits an (already unescaped) Exec value into arguments: spaces separate, double quotes
 * group, and inside quotes a backslash escapes `"`, `` ` ``, `$` and `\`. Throws on an
 * unterminated quote, which the caller reports as a broken desktop file.
 */
export function tokenizeExec(exec: string): string[] {
  const args: string[] = [];
  let current = '';
  let inArg = false;
  let quoted = false;
  for (let i = 0; i < exec.length; i += 1) {
    const char = exec[i]!;
    if (quoted) {
      if (char === '\\' && i + 1 < exec.length && '"`$\\'.includes(exec[i + 1]!)) {
        current += exec[i + 1];
        i += 1;
      } else if (char === '"') {
        quoted = false;
      } else {
        current += char;
      }
    } else if (char === '"') {
      quoted = true;
      inArg = true;
    } else if (char === ' ' || char === '\t' || char === '\n') {
      if (inArg) args.push(current);
      current = '';
      inArg = false;
    } else if (char === '\\' && i + 1 < exec.length) {
      // Not allowed by the spec outside quotes, but common: treat it as an escape.
      current += exec[i + 1];
      inArg = true;
      i += 1;
    } else {
      current += char;
      inArg = true;
    }
  }
  if (quoted) throw new Error(`unterminated quote in Exec line: ${exec}`);
  if (inArg) args.push(current);
  return args;
}

/** Field codes we have no values for (files, URLs, icon, name, location; deprecated ones). */
const FIELD_CODE = /^%[fFuUickdDnNvm]$/;

/**
 * The argv to run for an Exec line with no files: field codes removed (an argument that
 * was only field codes disappears), `%%` turned into `%`.
 */
export function execToArgv(exec: string): string[] {
  const argv: string[] = [];
  for (const arg of tokenizeExec(exec)) {
    let hadCode = false;
    const stripped = arg.replace(/%./g, (code) => {
      if (code === '%%') return '%';
      if (!FIELD_CODE.test(code)) return code;
      hadCode = true;
      return '';
    });
    if (hadCode && stripped === '') continue;
    argv.push(stripped);
  }
  return argv;
}
