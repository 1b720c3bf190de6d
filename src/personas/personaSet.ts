import { builtinPersonasDir } from '../config/paths.js';
import { findPersona, loadPersonas, type Persona } from './load.js';

/** The personas available to this run and the one in use; `/persona` switches it live. */
export interface PersonaSet {
  readonly list: readonly Persona[];
  readonly current: Persona;
  readonly warnings: string[];
  /** Switches by id or name; returns the persona, or undefined when none matches. */
  switchTo(nameOrId: string): Persona | undefined;
}

/** Used when no persona file can be read at all, so the agent still has a voice. */
const FALLBACK: Persona = {
  id: 'assistant',
  name: 'Assistant',
  nameZh: '助手',
  description: 'A calm, helpful generalist.',
  prompt: 'You are a calm, careful and helpful assistant.',
  source: 'builtin',
  file: '(built in)',
};

export function loadPersonaSet(home: string, wanted: string): PersonaSet {
  const { personas, warnings } = loadPersonas({ builtinDir: builtinPersonasDir(), home });
  const list = personas.length > 0 ? personas : [FALLBACK];
  let current = findPersona(list, wanted);
  if (!current) {
    warnings.push(
      `persona "${wanted}" was not found; using "${list[0]!.id}". Available: ${list.map((p) => p.id).join(', ')}`,
    );
    current = findPersona(list, 'assistant') ?? list[0]!;
  }
  return {
    list,
    warnings,
    get current() {
      return current!;
    },
    switchTo(nameOrId) {
      const found = findPersona(list, nameOrId);
      if (found) current = found;
      return found;
    },
  };
}
