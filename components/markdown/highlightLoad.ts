/**
 * highlight.js with the common languages, loaded on demand: importing it costs ~160 ms,
 * more than half the start-up budget, so the first frame never waits for it, and ~2 MB of
 * heap, so a screen that has shown no code block never loads it (the first code block
 * starts the load). Until it is ready, code blocks show as plain text; `version` changes once
 * it is, so cached rows are rebuilt with colours.
 */
import type { HLJSApi, LanguageFn } from 'highlight.js';

let api: HLJSApi | undefined;
let loading: Promise<void> | undefined;
let version = 0;
let markReady: () => void = () => undefined;
const ready = new Promise<void>((resolve) => (markReady = resolve));

/** The loaded highlighter, or undefined while it is not (yet) available. */
export function highlighter(): HLJSApi | undefined {
  return api;
}

/** Bumped when the highlighter becomes available (a cache key for highlighted rows). */
export function highlighterVersion(): number {
  return version;
}

/**
 * Starts loading the highlighter (once); resolves when it is ready. A failure leaves code
 * blocks plain and is not an error the user needs to see.
 */
export function loadHighlighter(): Promise<void> {
  loading ??= importAll().then(
    (hl) => {
      api = hl;
      version += 1;
      markReady();
    },
    () => undefined,
  );
  return loading;
}

/** Resolves once the highlighter has loaded (never, if nothing asks for it or it fails). */
export function highlighterReady(): Promise<void> {
  return ready;
}

async function importAll(): Promise<HLJSApi> {
  const [core, ...langs] = await Promise.all([
    import('highlight.js/lib/core'),
    import('highlight.js/lib/languages/javascript'),
    import('highlight.js/lib/languages/typescript'),
    import('highlight.js/lib/languages/python'),
    import('highlight.js/lib/languages/bash'),
    import('highlight.js/lib/languages/shell'),
    import('highlight.js/lib/languages/json'),
    import('highlight.js/lib/languages/go'),
    import('highlight.js/lib/languages/rust'),
    import('highlight.js/lib/languages/java'),
    import('highlight.js/lib/languages/c'),
    import('highlight.js/lib/languages/cpp'),
    import('highlight.js/lib/languages/css'),
    import('highlight.js/lib/languages/xml'),
    import('highlight.js/lib/languages/sql'),
    import('highlight.js/lib/languages/yaml'),
    import('highlight.js/lib/languages/diff'),
    import('highlight.js/lib/languages/ini'),
    import('highlight.js/lib/languages/markdown'),
  ]);
  const names =
    'javascript typescript python bash shell json go rust java c cpp css xml sql yaml diff ini markdown';
  const hl = core.default;
  names.split(' ').forEach((name, i) => hl.registerLanguage(name, langs[i]!.default as LanguageFn));
  return hl;
}
