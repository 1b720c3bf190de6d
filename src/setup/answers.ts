/**
 * Between the wizard's answers and config.json: where the answers start (the file's current
 * values, so `--setup` edits rather than starts over) and what the end writes.
 */
import type { ConfigInput } from '../config/schema.js';
import type { Lang } from '../i18n/messages.js';
import { presetById, presetForBaseURL } from './presets.js';
import type { Answers } from './wizard.js';

interface InitialAnswerSource {
  /** The language to start in (the config's, else the locale's). */
  language: Lang;
  /** What config.json holds (validated, without env or flag overrides); {} on first run. */
  file: Record<string, unknown>;
}

const str = (v: unknown): string => (typeof v === 'string' ? v : '');

/**
 * The answers the wizard starts from. On first run nothing is chosen but the language; on `--setup` the provider, key, model and persona already in the file.
 */
export function initialAnswers(src: InitialAnswerSource): Answers {
  const f = src.file;
  const baseURL = str(f['baseURL']);
  const local = f['provider'] === 'local';
  const preset = local
    ? presetById('gguf')
    : baseURL
      ? (presetForBaseURL(baseURL) ?? presetById('custom'))
      : undefined;
  return {
    language: src.language,
    presetId: preset?.id,
    baseURL: preset && !local ? baseURL : '',
    apiKey: preset && !local ? str(f['apiKey']) : '',
    model: preset && !local ? str(f['model']) : '',
    modelPath: str(f['modelPath']),
    persona: str(f['persona']) || 'assistant',
  };
}

/** What saving the answers changes: settings to write, and settings to take out. */
interface ConfigChange {
  set: ConfigInput;
  /** Top-level keys to delete from the file (e.g. an old key when the new server needs none). */
  remove: (keyof ConfigInput)[];
}

/**
 * The settings the answers stand for. An OpenAI-compatible choice without a key removes
 * any key left in the file, so a key meant for one service is never sent to another. No
 * workspace is stored (Cogito works in the folder it starts in), and one an earlier version
 * stored is taken out.
 */
export function toConfigChange(a: Answers): ConfigChange {
  const common: ConfigInput = { persona: a.persona, language: a.language };
  if (a.presetId === 'gguf' || a.presetId === 'private') {
    return {
      set: { ...common, provider: 'local', modelPath: a.modelPath },
      remove: ['workspace'],
    };
  }
  const set: ConfigInput = {
    ...common,
    provider: 'openai-compatible',
    baseURL: a.baseURL.trim(),
    model: a.model.trim(),
    ...(a.apiKey ? { apiKey: a.apiKey } : {}),
    // The preset's way of calling tools; another service keeps what the file says.
    ...(a.presetId !== undefined && a.presetId !== 'custom'
      ? { toolCalls: presetById(a.presetId).toolCalls ?? 'text' }
      : {}),
  };
  return { set, remove: a.apiKey ? ['workspace'] : ['workspace', 'apiKey'] };
}
