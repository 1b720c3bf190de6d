import { DEFAULT_MAX_INTERVAL_MS } from '../config/schema.js';
import type { Lang } from '../i18n/messages.js';
import { realTimers, type Timers } from '../scheduler/scheduler.js';
import type { Reminders } from '../reminders/reminders.js';
import type { Workspace } from '../tools/workspace.js';
import type { WorkspaceChanges } from '../watch/changes.js';
import { treeFingerprint } from '../watch/fingerprint.js';
import { loadIgnore } from '../watch/ignore.js';
import { OwnWrites } from '../watch/ownWrites.js';
import { watchWorkspace, type WorkspaceWatcher } from '../watch/workspaceWatcher.js';
import { AlwaysOn, type AlwaysOnSettings } from './alwaysOn.js';

/** What the agent's always-on parts are built from (a subset of the agent's deps). */
export interface AlwaysOnWiringDeps {
  workspace: Workspace;
  timers?: Timers;
  reminders?: Reminders;
  fingerprint?(): Promise<string>;
  idleSkip?: boolean;
  /** watch.ignore: patterns the fingerprint leaves out too. */
  watch?: { ignore?: readonly string[] };
  /** The folder memory's ask to tidy, for autonomous notes (see AgentDeps). */
  memoryNudge?(): string | undefined;
}

/** The agent's settings as far as pacing and budgets read them. */
type SettingsSource = () => Omit<AlwaysOnSettings, 'maxIntervalMs' | 'tokenBudgetPerDay'> & {
  maxIntervalMs?: number;
  tokenBudgetPerDay?: number;
};

/** Builds the pacing/budget/reminder state and the own-writes record for one agent. */
export function createAlwaysOn(
  parts: AlwaysOnWiringDeps,
  settings: SettingsSource,
  watchDelayMs?: () => number | undefined,
): { alwaysOn: AlwaysOn; ownWrites: OwnWrites } {
  const timers = parts.timers ?? realTimers;
  const now = (): number => timers.now();
  const root = parts.workspace.root;
  const extra = parts.watch?.ignore ?? [];
  const alwaysOn = new AlwaysOn({
    now,
    timers,
    budget: settings(),
    ...(parts.reminders ? { reminders: parts.reminders } : {}),
    ...(parts.memoryNudge ? { memoryNudge: parts.memoryNudge } : {}),
    ...(watchDelayMs ? { watchDelayMs } : {}),
    settings: () => {
      const s = settings();
      return {
        ...s,
        maxIntervalMs: s.maxIntervalMs ?? DEFAULT_MAX_INTERVAL_MS,
        tokenBudgetPerDay: s.tokenBudgetPerDay ?? 0,
      };
    },
    ...(parts.idleSkip === false
      ? {}
      : {
          // The ignore files are read again each time: an edited .gitignore counts at once.
          fingerprint: parts.fingerprint ?? (() => treeFingerprint(root, loadIgnore(root, extra))),
        }),
  });
  return { alwaysOn, ownWrites: new OwnWrites(root, now) };
}

/** Starts the workspace watcher for an agent; the caller closes it on every exit path. */
export function startWatcher(opts: {
  root: string;
  ownWrites: OwnWrites;
  debounceMs?: number | undefined;
  ignore?: readonly string[] | undefined;
  maxEntries?: number | undefined;
  onChange(batch: WorkspaceChanges): void;
  onError(message: string): void;
  onNotice(message: string): void;
  lang?: Lang;
}): WorkspaceWatcher {
  return watchWorkspace({
    root: opts.root,
    ownWrites: opts.ownWrites,
    ...(opts.debounceMs !== undefined ? { debounceMs: opts.debounceMs } : {}),
    ...(opts.ignore !== undefined ? { ignore: opts.ignore } : {}),
    ...(opts.maxEntries !== undefined ? { maxEntries: opts.maxEntries } : {}),
    onChange: opts.onChange,
    onError: opts.onError,
    onNotice: opts.onNotice,
    ...(opts.lang !== undefined ? { lang: opts.lang } : {}),
  });
}
