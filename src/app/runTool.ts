/**
 * The `run` tool as the app builds it: its settings from config.json, Cogito's home hidden
 * from every command, and its changes journaled for /changes and /undo; with it the tools
 * that read and stop its background commands, and those commands' set, which the app stops
 * when it closes or the session changes.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Config } from '../config/schema.js';
import type { SessionJournal } from '../journal/sessionJournal.js';
import { withRunJournal } from '../journal/runJournal.js';
import { BackgroundCommands } from '../tools/process/background.js';
import { createBackgroundTools } from '../tools/process/backgroundTools.js';
import { createRunTool, isReadOnlyCall } from '../tools/process/run.js';
import type { Tool } from '../tools/types.js';

export interface RunTools {
  tools: Tool[];
  background: BackgroundCommands;
}

export function buildRunTools(config: Config, journals: SessionJournal, home: string): RunTools {
  const ownHome = realOr(path.resolve(home));
  const settings = {
    ...config.run,
    ...(config.run.bwrapPath !== undefined ? { bwrapPath: config.run.bwrapPath } : {}),
  };
  const background = new BackgroundCommands(() => settings);
  const tool = createRunTool({
    settings,
    hidden: [ownHome],
    userHome: realOr(os.homedir()),
    background,
  });
  const inHome = (abs: string): boolean => {
    const rel = path.relative(ownHome, abs);
    return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
  };
  const journaled = withRunJournal(tool, () => journals.current(), {
    readOnly: (args) => isReadOnlyCall(args, settings),
    skip: inHome,
  });
  return { tools: [journaled, ...createBackgroundTools(background)], background };
}

function realOr(p: string): string {
  try {
    return fs.realpathSync(p);
  } catch {
    return p;
  }
}
