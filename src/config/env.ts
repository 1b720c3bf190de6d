/**
 * Environment overrides. They sit between the file and the command-line flags: flags win
 * over these, these win over config.json. Empty variables count as unset, so
 * `OPENAI_API_KEY= cogito` does not blank a key stored in the file.
 */

/** Each overridable setting and the variables that can set it, strongest first. */
const ENV_OVERRIDES = [
  { field: 'apiKey', vars: ['COGITO_API_KEY', 'OPENAI_API_KEY'] },
  { field: 'baseURL', vars: ['COGITO_BASE_URL'] },
  { field: 'model', vars: ['COGITO_MODEL'] },
] as const;

type EnvOverridableField = (typeof ENV_OVERRIDES)[number]['field'];

/** The values found in `env`, and the variable each one came from. */
interface EnvOverrides {
  values: Partial<Record<EnvOverridableField, string>>;
  names: Partial<Record<EnvOverridableField, string>>;
}

/** Reads the overrides present in `env` (trimmed; empty ones ignored). */
export function envOverrides(env: NodeJS.ProcessEnv): EnvOverrides {
  const values: EnvOverrides['values'] = {};
  const names: EnvOverrides['names'] = {};
  for (const { field, vars } of ENV_OVERRIDES) {
    for (const name of vars) {
      const value = env[name]?.trim();
      if (value) {
        values[field] = value;
        names[field] = name;
        break;
      }
    }
  }
  return { values, names };
}
