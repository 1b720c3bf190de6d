/**
 * The command table, for the help overlay: loaded the first time the help opens, not at
 * start (the table imports every command, and they import the provider client and the
 * undo journal, none of which the first frame needs). Once loaded it stays for the process.
 */
import { useEffect, useState } from 'react';
import type { SlashCommand } from '../../src/commands/table.js';

let loaded: readonly SlashCommand[] | undefined;

/** The table once `wanted` has been true and the import finished; undefined until then. */
export function useCommandTable(wanted: boolean): readonly SlashCommand[] | undefined {
  const [table, setTable] = useState(loaded);
  useEffect(() => {
    if (!wanted || table) return;
    let live = true;
    void import('../../src/commands/builtin.js').then((m) => {
      loaded = m.COMMANDS;
      if (live) setTable(m.COMMANDS);
    });
    return () => {
      live = false;
    };
  }, [wanted, table]);
  return table;
}
