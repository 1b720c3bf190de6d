/** The screen's language, provided once at the root and read by every component. */
import { createContext, useContext } from 'react';
import type { Lang } from '../src/i18n/messages.js';

export const LangContext = createContext<Lang>('en');

export function useLang(): Lang {
  return useContext(LangContext);
}

/** A message picked at run time (a key held in a table), shown as it is, without values. */
export { plainTextFor as plainText } from './keys/plainText.js';
