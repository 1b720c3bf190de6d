/**
 * The models Cogito offers to download, as one frozen table, and how a `--download-model`
 * argument (`small`, `medium`, `large`, `hf:user/repo/file.gguf` or a URL) becomes a file to
 * fetch.
 *
 * Sizes are the published file sizes, rounded: they plan disk and memory. They are not used
 * to verify a download; the server's own announced length and, where the source publishes
 * one, its SHA-256 are (see `download.ts`). No checksum is pinned here: none could be checked
 * against the real file when this table was written (docs/LOCAL.md says why).
 */

/** The catalogue's ids, smallest first. */
export type CatalogId = 'small' | 'medium' | 'large';

export interface CatalogModel {
  id: CatalogId;
  /** Shown to the user. */
  label: string;
  /** The file name on the source, and in `<app home>/models/`. */
  file: string;
  /** Hugging Face repository the file comes from by default. */
  repo: string;
  /** Approximate file size in bytes (for disk and memory planning). */
  approxBytes: number;
  /** Memory the model needs to run with an 8k context: weights + KV cache + runtime. */
  ramBytes: number;
  /** What it is good at, in a few words, per language. */
  goodAt: { en: string; zh: string };
}

const GB = 1_000_000_000;

/** Qwen2.5 Instruct in Q4_K_M: follows the `[TOOL]` protocol, speaks English and Chinese. */
export const CATALOG: readonly CatalogModel[] = Object.freeze([
  {
    id: 'small',
    label: 'Qwen2.5 1.5B Instruct (Q4_K_M)',
    file: 'qwen2.5-1.5b-instruct-q4_k_m.gguf',
    repo: 'Qwen/Qwen2.5-1.5B-Instruct-GGUF',
    approxBytes: 1.12 * GB,
    ramBytes: 2.5 * GB,
    goodAt: {
      en: 'fast on any laptop; short answers, simple file tasks; uses tools now and then',
      zh: '任何笔记本都很快；简短回答、简单文件任务；偶尔能正确调用工具',
    },
  },
  {
    id: 'medium',
    label: 'Qwen2.5 3B Instruct (Q4_K_M)',
    file: 'qwen2.5-3b-instruct-q4_k_m.gguf',
    repo: 'Qwen/Qwen2.5-3B-Instruct-GGUF',
    approxBytes: 2.1 * GB,
    ramBytes: 4 * GB,
    goodAt: {
      en: 'the smallest that uses tools reliably; everyday notes, files and web look-ups',
      zh: '能可靠调用工具的最小模型；日常笔记、文件与网页查询',
    },
  },
  {
    id: 'large',
    label: 'Qwen2.5 7B Instruct (Q4_K_M)',
    file: 'Qwen2.5-7B-Instruct-Q4_K_M.gguf',
    repo: 'bartowski/Qwen2.5-7B-Instruct-GGUF',
    approxBytes: 4.68 * GB,
    ramBytes: 7.5 * GB,
    goodAt: {
      en: 'good everyday quality; longer reasoning and writing; a few tokens/s on a CPU',
      zh: '日常质量好；较长的推理与写作；CPU 上每秒数个词元',
    },
  },
] satisfies CatalogModel[]);

/** The catalogue entry with this id. */
export function catalogModel(id: CatalogId): CatalogModel {
  const found = CATALOG.find((m) => m.id === id);
  if (!found) throw new Error(`unknown catalogue model "${id}"`);
  return found;
}

/** A file to download: where from, under which name, and what is known about it. */
export interface ModelSource {
  url: string;
  /** The file name in `<app home>/models/`. */
  file: string;
  label: string;
  /** From the catalogue; undefined for a URL or `hf:` file nobody sized. */
  model?: CatalogModel;
}

type ResolvedSource = { ok: true; source: ModelSource } | { ok: false; message: string };

const FILE_NAME = /^[\w.+-]+\.gguf$/i;

/** `COGITO_MODELS_URL` without its trailing slash, or undefined when unset. */
function mirrorBase(env: NodeJS.ProcessEnv): string | undefined {
  const base = env.COGITO_MODELS_URL?.trim();
  return base ? base.replace(/\/+$/, '') : undefined;
}

function hfUrl(repo: string, file: string): string {
  return `https://huggingface.co/${repo}/resolve/main/${file}`;
}

/**
 * Resolves a `--download-model` argument. With `COGITO_MODELS_URL` set, catalogue and `hf:`
 * files come from `<COGITO_MODELS_URL>/<file name>` instead (mirrors, tests); a full URL is
 * always fetched as given.
 */
export function resolveModelSpec(spec: string, env: NodeJS.ProcessEnv): ResolvedSource {
  const wanted = spec.trim();
  const mirror = mirrorBase(env);
  const model = CATALOG.find((m) => m.id === wanted.toLowerCase());
  if (model) {
    const url = mirror ? `${mirror}/${model.file}` : hfUrl(model.repo, model.file);
    return { ok: true, source: { url, file: model.file, label: model.label, model } };
  }
  if (wanted.startsWith('hf:')) return resolveHf(wanted.slice(3), mirror);
  if (/^https?:\/\//i.test(wanted)) return resolveUrl(wanted);
  return {
    ok: false,
    message:
      `"${spec}" is not a model Cogito knows. Use small, medium or large, ` +
      'hf:<user>/<repo>/<file>.gguf, or an http(s) URL of a .gguf file.',
  };
}

function resolveHf(rest: string, mirror: string | undefined): ResolvedSource {
  const parts = rest.split('/');
  const file = parts[parts.length - 1] ?? '';
  if (
    parts.length < 3 ||
    parts.some((p) => p === '' || p === '.' || p === '..') ||
    !FILE_NAME.test(file)
  ) {
    return {
      ok: false,
      message:
        `"hf:${rest}" does not name a file. Write hf:<user>/<repo>/<file>.gguf, for example ` +
        'hf:Qwen/Qwen2.5-3B-Instruct-GGUF/qwen2.5-3b-instruct-q4_k_m.gguf.',
    };
  }
  const repo = parts.slice(0, -1).join('/');
  const url = mirror ? `${mirror}/${file}` : hfUrl(repo, file);
  return { ok: true, source: { url, file, label: file } };
}

function resolveUrl(raw: string): ResolvedSource {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { ok: false, message: `"${raw}" is not a valid URL.` };
  }
  let file: string;
  try {
    file = decodeURIComponent(url.pathname.split('/').pop() ?? '');
  } catch {
    file = ''; // A malformed %-escape: not a usable file name.
  }
  if (!FILE_NAME.test(file)) {
    return {
      ok: false,
      message: `"${raw}" does not end in a .gguf file name; give the direct link to the file.`,
    };
  }
  return { ok: true, source: { url: url.href, file, label: file } };
}
