/**
 * Context-window sizes (in tokens) for common models, used when `contextWindow` is not set.
 * Matched by the longest prefix of the normalised model name, so `gpt-4o-mini-2024-07-18`
 * finds `gpt-4o` and `qwen2.5:7b` finds `qwen2.5`. Where a family varies by size the
 * smaller figure is used: guessing low only compresses early, guessing high overflows.
 */
const CONTEXT_WINDOWS: Readonly<Record<string, number>> = {
  // DeepSeek: the API serves 128k for deepseek-chat and deepseek-reasoner (V3.x).
  deepseek: 128_000,
  // OpenAI
  'gpt-5': 400_000,
  'gpt-4.1': 1_047_576,
  'gpt-4o': 128_000,
  'gpt-4-turbo': 128_000,
  'gpt-4': 8_192,
  'gpt-3.5-turbo': 16_385,
  o1: 200_000,
  'o1-mini': 128_000,
  o3: 200_000,
  'o4-mini': 200_000,
  // Qwen (DashScope and open weights)
  'qwen-plus': 131_072,
  'qwen-max': 131_072,
  'qwen-turbo': 131_072,
  'qwen2.5': 32_768,
  qwen3: 32_768,
  // Moonshot / Kimi
  'moonshot-v1-8k': 8_192,
  'moonshot-v1-32k': 32_768,
  'moonshot-v1-128k': 131_072,
  'kimi-k2': 131_072,
  // Llama: 3.1 and later have 128k; the original Llama 3 (8B and 70B) has 8k.
  llama3: 8_192,
  'llama3.': 131_072,
  // Others
  mistral: 32_768,
  mixtral: 32_768,
  gemma: 8_192,
  claude: 200_000,
};

/** When nothing matches: a size most current servers handle. */
export const DEFAULT_CONTEXT_WINDOW = 32_768;

/**
 * Lower-cases, drops an organisation or path prefix (`meta-llama/…`, `models/…`) and
 * writes `llama-3.1` the way Ollama does (`llama3.1`), so one table serves every server.
 */
function normaliseModelName(model: string): string {
  const base = model.trim().toLowerCase().split('/').pop() ?? '';
  return base.replace(/^(meta-)?llama-(\d)/, 'llama$2').replace(/\.gguf$/, '');
}

/** The table's size for `model`, or undefined when no prefix matches. */
function knownContextWindow(model: string): number | undefined {
  const name = normaliseModelName(model);
  let best: string | undefined;
  for (const prefix of Object.keys(CONTEXT_WINDOWS)) {
    if (name.startsWith(prefix) && (best === undefined || prefix.length > best.length)) {
      best = prefix;
    }
  }
  return best === undefined ? undefined : CONTEXT_WINDOWS[best];
}

/**
 * The context window to plan compression against: `config.contextWindow` when set, else the
 * table, else {@link DEFAULT_CONTEXT_WINDOW}.
 */
export function contextWindowFor(
  model: string,
  config: { contextWindow?: number | undefined } = {},
): number {
  return config.contextWindow ?? knownContextWindow(model) ?? DEFAULT_CONTEXT_WINDOW;
}
