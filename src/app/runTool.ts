/**
 * The `run` tool as the app builds it: its settings from config.json, Cogito's home hidden
 * from every command, and its changes journaled for /changes and /undo.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Config } from '../config/schema.js';
import type { SessionJournal } from '../journal/sessionJournal.js';
import { withRunJournal } from '../journal/runJournal.js';
import { createRunTool, isReadOnlyCall } from '../tools/process/run.js';
import type { Tool } from '../tools/types.js';

export function buildRunTool(config: Config, journals: SessionJournal, home: string): Tool {
  const ownHome = realOr(path.resolve(home));
  const settings = {
    ...config.run,
    ...(config.run.bwrapPath !== undefined ? { bwrapPath: config.run.bwrapPath } : {}),
  };
  const tool = createRunTool({ settings, hidden: [ownHome], userHome: realOr(os.homedir()) });
  const inHome = (abs: string): boolean => {
    const rel = path.relative(ownHome, abs);
    return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
  };
  return withRunJournal(tool, () => journals.current(), {
    readOnly: (args) => isReadOnlyCall(args, settings),
    skip: inHome,
  });
}

function realOr(p: string): string {
  try {
    return fs.realpathSync(p);
  } catch {
    return p;
  }
}
