/**
 * The providers the setup wizard offers, as one table. A preset fills in the base URL and
 * says whether a key is needed; the wizard asks only what the preset leaves open.
 *
 * Labels are data, like persona names: brand names stay as they are, and the two that
 * describe rather than name something carry their own Chinese label.
 */
import type { Lang } from '../i18n/messages.js';

/** The presets' ids: stable, used in tests and to preselect on `--setup`. */
export type PresetId =
  | 'private'
  | 'deepseek'
  | 'openai'
  | 'qwen'
  | 'moonshot'
  | 'ollama'
  | 'lmstudio'
  | 'llamacpp'
  | 'custom'
  | 'gguf';

/** Whether the wizard asks for a key: always, optionally (empty allowed), or never. */
type KeyNeed = 'required' | 'optional' | 'none';

export interface ProviderPreset {
  id: PresetId;
  label: Readonly<Record<Lang, string>>;
  /**
   * `remote`: a hosted OpenAI-compatible API. `local-server`: an OpenAI-compatible server on
   * this machine (detected on its usual port). `custom`: any address the user types.
   * `gguf`: a model file run in-process. `download`: a model Cogito downloads, then runs
   * in-process like `gguf`.
   */
  kind: 'remote' | 'local-server' | 'custom' | 'gguf' | 'download';
  /** The API root (ends in /v1 or the service's equivalent); empty when the user types it. */
  baseURL: string;
  key: KeyNeed;
  /** The port a local server listens on by default (what detection probes). */
  port?: number;
  /** Offered when the server does not list its models. */
  models: readonly string[];
  /**
   * How its models call tools (config `toolCalls`): `native` for the hosted APIs whose
   * function calling is dependable; absent, the `[TOOL]` text protocol (the default), which
   * any model can follow whatever its server's chat template does with tools.
   */
  toolCalls?: 'text' | 'native';
}

/** Every preset, in the order the wizard lists them. Frozen: the wizard never edits it. */
export const PRESETS: readonly ProviderPreset[] = Object.freeze([
  // First: the one choice that needs no account, no key and no server.
  {
    id: 'private',
    label: {
      en: 'Private: download a local model and run it here',
      zh: '私密：下载本地模型并在本机运行',
    },
    kind: 'download',
    baseURL: '',
    key: 'none',
    models: [],
  },
  {
    id: 'deepseek',
    label: { en: 'DeepSeek', zh: 'DeepSeek 深度求索' },
    kind: 'remote',
    baseURL: 'https://api.deepseek.com/v1',
    key: 'required',
    models: ['deepseek-chat', 'deepseek-reasoner'],
    toolCalls: 'native',
  },
  {
    id: 'openai',
    label: { en: 'OpenAI', zh: 'OpenAI' },
    kind: 'remote',
    baseURL: 'https://api.openai.com/v1',
    key: 'required',
    models: ['gpt-4o-mini', 'gpt-4o', 'gpt-4.1'],
    toolCalls: 'native',
  },
  {
    id: 'qwen',
    label: { en: 'Qwen (Alibaba DashScope)', zh: '通义千问（阿里云百炼 DashScope）' },
    kind: 'remote',
    baseURL: 'https://dashscope.aliyuncs.com/compatible-mode/v1',
    key: 'required',
    models: ['qwen-plus', 'qwen-max', 'qwen-turbo'],
    toolCalls: 'native',
  },
  {
    id: 'moonshot',
    label: { en: 'Moonshot (Kimi)', zh: '月之暗面 Kimi（Moonshot）' },
    kind: 'remote',
    baseURL: 'https://api.moonshot.cn/v1',
    key: 'required',
    models: ['moonshot-v1-32k', 'moonshot-v1-128k', 'kimi-k2-0711-preview'],
    toolCalls: 'native',
  },
  {
    id: 'ollama',
    label: { en: 'Ollama', zh: 'Ollama' },
    kind: 'local-server',
    baseURL: 'http://127.0.0.1:11434/v1',
    key: 'none',
    port: 11434,
    models: ['llama3.1', 'qwen2.5'],
  },
  {
    id: 'lmstudio',
    label: { en: 'LM Studio', zh: 'LM Studio' },
    kind: 'local-server',
    baseURL: 'http://127.0.0.1:1234/v1',
    key: 'none',
    port: 1234,
    models: [],
  },
  {
    id: 'llamacpp',
    label: { en: 'llama.cpp server', zh: 'llama.cpp 服务器' },
    kind: 'local-server',
    baseURL: 'http://127.0.0.1:8080/v1',
    key: 'none',
    port: 8080,
    models: [],
  },
  {
    id: 'custom',
    label: { en: 'Other OpenAI-compatible service', zh: '其他 OpenAI 兼容服务' },
    kind: 'custom',
    baseURL: '',
    key: 'optional',
    models: [],
  },
  {
    id: 'gguf',
    label: { en: 'Local GGUF model file', zh: '本机 GGUF 模型文件' },
    kind: 'gguf',
    baseURL: '',
    key: 'none',
    models: [],
  },
] satisfies ProviderPreset[]);

/** The preset with this id (the table is closed, so it always exists). */
export function presetById(id: PresetId): ProviderPreset {
  const found = PRESETS.find((p) => p.id === id);
  if (!found) throw new Error(`unknown provider preset "${id}"`);
  return found;
}

/** The local-server presets and the ports detection probes by default. */
export function localServerPresets(): ProviderPreset[] {
  return PRESETS.filter((p) => p.kind === 'local-server');
}

/**
 * The preset a saved base URL belongs to (so `--setup` starts on the user's current
 * choice): an exact match of a preset's URL, ignoring a trailing slash and localhost's name.
 */
export function presetForBaseURL(baseURL: string): ProviderPreset | undefined {
  const norm = (u: string): string =>
    u.trim().replace(/\/+$/, '').replace('//localhost:', '//127.0.0.1:').toLowerCase();
  const wanted = norm(baseURL);
  if (wanted === '') return undefined;
  return PRESETS.find((p) => p.baseURL !== '' && norm(p.baseURL) === wanted);
}
