/**
 * Protected places: the one policy for where the file tools may write. Two levels:
 * - `never`: no tool writes there, approval or not: version-control metadata (a git hook or
 *   `core.fsmonitor` runs at the user's next `git` command), Cogito's own home (config with
 *   the API key, data, personas, lock) and its install folder (its own code), the trash;
 * - `approve`: files other programs run or load by themselves (shell start-up files,
 *   autostart and launcher entries, editor and CI task files, crontabs, `*.desktop`). A
 *   write there asks every time, with the exact content on the card.
 * Paths are judged by their segments relative to the workspace, anywhere in the tree, so a
 * workspace that is the user's home (`.bashrc` at the top) and a project with a nested
 * `vendor/x/.git` are both covered.
 */
import { say, type MessageKey, type Phrase } from '../i18n/messages.js';
import path from 'node:path';

/**
 * How a place is protected, with a phrase naming what it is for messages. `trash` marks
 * the trash folder, whose refusal is a usage error (the model named the wrong folder).
 */
/** `what` names the place in English (for the model); `phrase` says it in the screen's language. */
export type Protection = {
  level: 'never' | 'approve';
  what: string;
  phrase: Phrase;
  trash?: true;
};

/** Version-control metadata folders: hooks and config in them run code later. */
const VCS_DIRS = ['.git', '.hg', '.svn'];

/** Where `delete` keeps what it removed; only delete itself writes there. */
const TRASH_SEGMENT = '.cogito-trash';

/** Shell and session start-up files, run by a shell or the X session at the next login. */
export const STARTUP_FILES = [
  '.bashrc',
  '.bash_profile',
  '.bash_login',
  '.bash_logout',
  '.profile',
  '.zshrc',
  '.zprofile',
  '.zshenv',
  '.zlogin',
  '.zlogout',
  '.cshrc',
  '.tcshrc',
  '.kshrc',
  '.mkshrc',
  '.xprofile',
  '.xinitrc',
  '.xsession',
  '.xsessionrc',
  'crontab',
];

/** Folder sequences whose contents another program loads or runs by itself. */
const AUTORUN_DIRS: readonly { seq: readonly string[]; key: MessageKey }[] = [
  { seq: ['.config', 'fish'], key: 'place.fish' },
  { seq: ['.config', 'autostart'], key: 'place.autostart' },
  { seq: ['.config', 'systemd'], key: 'place.systemd' },
  { seq: ['.local', 'share', 'applications'], key: 'place.launcher' },
  { seq: ['Library', 'LaunchAgents'], key: 'place.launchAgent' },
  { seq: ['Library', 'LaunchDaemons'], key: 'place.launchDaemon' },
  { seq: ['.vscode'], key: 'place.vscode' },
  { seq: ['.idea'], key: 'place.idea' },
  { seq: ['.github', 'workflows'], key: 'place.ciWorkflow' },
  { seq: ['cron.d'], key: 'place.cron' },
  { seq: ['crontabs'], key: 'place.cron' },
];

/** Where Cogito itself lives; every field is an absolute path. */
export interface OwnPlaces {
  /** The app home: config, data, personas, persona.md, lock sit here. */
  home: string;
  /** The individual files and folders of the home that hold Cogito's state. */
  homeItems: readonly string[];
  /** The package root of the running Cogito (where its package.json and bin are). */
  installRoot: string;
  /** The entries of the install folder that are Cogito's code (bin, src, package.json…). */
  installItems: readonly string[];
}

/** The protection policy, bound to one workspace root and its case rules. */
export class ProtectedPlaces {
  private readonly ownNever: { abs: string; key: MessageKey }[] = [];

  /**
   * @param root real path of the workspace root.
   * @param own Cogito's own places; when the home or the install folder lies strictly
   *   inside the workspace it is protected whole, otherwise only its items are (the
   *   default layout has the home, the install folder and the workspace in one folder).
   */
  constructor(
    private readonly root: string,
    own: OwnPlaces | undefined,
    private readonly caseInsensitive: boolean,
  ) {
    if (own === undefined) return;
    this.addOwn(own.home, own.homeItems, 'place.home');
    this.addOwn(own.installRoot, own.installItems, 'place.install');
  }

  /**
   * How the place at `rel` (workspace-relative, forward slashes) and `real` (its real
   * absolute path, symlinks followed) is protected for writing, or undefined when free.
   * Both are judged: a symlink inside the workspace pointing into `.git` is `.git`.
   */
  forWrite(rel: string, real: string): Protection | undefined {
    const own = this.ownPlace(real);
    if (own !== undefined) return place('never', { key: own });
    for (const segments of [this.segments(rel), this.segments(this.relOf(real))]) {
      const found = classifySegments(segments, (s) => this.fold(s));
      if (found !== undefined) return found;
    }
    return undefined;
  }

  private addOwn(base: string, items: readonly string[], key: MessageKey): void {
    const rel = this.relOf(base);
    const strictlyInside = rel !== undefined && rel !== '.';
    if (strictlyInside) this.ownNever.push({ abs: base, key });
    else for (const item of items) this.ownNever.push({ abs: item, key });
  }

  private ownPlace(real: string): MessageKey | undefined {
    for (const own of this.ownNever) {
      const r = path.relative(this.fold(own.abs), this.fold(real));
      if (r === '' || !(r === '..' || r.startsWith(`..${path.sep}`) || path.isAbsolute(r))) {
        return own.key;
      }
    }
    return undefined;
  }

  private relOf(abs: string): string | undefined {
    const r = path.relative(this.fold(this.root), this.fold(abs));
    if (r === '') return '.';
    if (r === '..' || r.startsWith(`..${path.sep}`) || path.isAbsolute(r)) return undefined;
    return r.split(path.sep).join('/');
  }

  private segments(rel: string | undefined): string[] {
    if (rel === undefined || rel === '.') return [];
    return rel.split('/').filter((s) => s !== '' && s !== '.');
  }

  private fold(s: string): string {
    return this.caseInsensitive ? s.toLowerCase() : s;
  }
}

/** The rule a list of path segments falls under, checked most severe first. */
export function classifySegments(
  segments: readonly string[],
  fold: (s: string) => string = (s) => s,
): Protection | undefined {
  const folded = segments.map((s) => fold(s));
  for (const vcs of VCS_DIRS) {
    if (folded.includes(fold(vcs))) {
      return place('never', { key: 'place.vcs', vars: { vcs } });
    }
  }
  if (folded.includes(fold(TRASH_SEGMENT))) {
    return {
      ...place('never', { key: 'place.trash', vars: { trash: TRASH_SEGMENT } }),
      trash: true,
    };
  }
  const last = folded[folded.length - 1] ?? '';
  if (STARTUP_FILES.some((f) => fold(f) === last)) {
    return place('approve', { key: 'place.startupFile' });
  }
  for (const dir of AUTORUN_DIRS) {
    if (containsSequence(folded, dir.seq.map(fold))) return place('approve', { key: dir.key });
  }
  if (last.endsWith('.desktop')) {
    return place('approve', { key: 'place.desktopEntry' });
  }
  return undefined;
}

/** A protection named by `phrase`, with its English words for the model. */
function place(level: Protection['level'], phrase: Phrase): Protection {
  return { level, what: say('en', phrase), phrase };
}

/** True when `seq` appears in `list` as consecutive items. */
function containsSequence(list: readonly string[], seq: readonly string[]): boolean {
  for (let i = 0; i + seq.length <= list.length; i++) {
    if (seq.every((s, j) => list[i + j] === s)) return true;
  }
  return false;
}
