/**
 * The agent's settings as one frozen value: made once from what the user set, then replaced
 * whole by the agent's settings command (`/approve` goes through it). A part that needs the
 * value as it is now asks the agent for it when it starts (the tool runner at every call);
 * a reference kept from before still shows what it saw.
 */
import type { AgentSettings } from './agentDeps.js';

/** A change to the settings: the fields it names, approval kinds merged one by one. */
export type SettingsPatch = Partial<Omit<AgentSettings, 'approval'>> & {
  readonly approval?: Partial<AgentSettings['approval']>;
};

/** The settings frozen, nested objects included (a copy: the caller's object stays writable). */
export function frozenSettings(settings: AgentSettings): AgentSettings {
  const { approval, backoff, changeWakes } = settings;
  return Object.freeze({
    ...settings,
    approval: Object.freeze({ ...approval }),
    backoff: Object.freeze({ ...backoff }),
    ...(changeWakes ? { changeWakes: Object.freeze({ ...changeWakes }) } : {}),
  });
}

/** The next settings value: `current` with `patch` laid over it, frozen; `current` unchanged. */
export function patchedSettings(current: AgentSettings, patch: SettingsPatch): AgentSettings {
  const { approval, ...rest } = patch;
  return frozenSettings({
    ...current,
    ...rest,
    approval: { ...current.approval, ...approval },
  } as AgentSettings);
}
