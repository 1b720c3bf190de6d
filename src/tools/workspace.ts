/**
 * The workspace: the one folder Cogito may touch, and the one resolver every path
 * argument goes through. Containment is checked twice: lexically (the normalised path
 * must sit under the root) and physically (the real path, symlinks followed, must too),
 * so neither `..` tricks nor symlinks pointing out can reach the rest of the machine.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import type { ToolError } from './toolError.js';
import { realpathLoose } from '../core/realpath.js';
import { checkPathShape } from './pathShape.js';
import { ProtectedPlaces, type OwnPlaces, type Protection } from '../safety/protectedPlaces.js';

/** A path argument after resolution. */
export interface ResolvedPath {
  /** Absolute path to operate on (lexical: a final symlink is the link itself, not its target). */
  abs: string;
  /** Relative to the root with forward slashes; '.' for the root itself. */
  rel: string;
  /**
   * Set for a `write` resolution of a place written only after approval (a shell start-up
   * file, an autostart entry…): the tool must ask, showing the content, before writing.
   */
  protection?: Protection;
}

type ResolveResult = { ok: true; path: ResolvedPath } | { ok: false; error: ToolError };

export interface ResolveOptions {
  /** Fail with `not_found` when nothing exists at the path (a dangling symlink counts as existing). */
  mustExist?: boolean;
  /**
   * `write` when the tool will change what is at the path (create, edit, mkdir, delete,
   * the destination of copy and move, the source of move). A write into a protected place
   * of level `never` is refused here; one of level `approve` is reported in `protection`.
   */
  access?: 'read' | 'write';
}

interface WorkspaceOptions {
  /** Decides case sensitivity: win32 and darwin compare paths case-insensitively. */
  platform?: NodeJS.Platform;
}

/** The folder Cogito works in, with the containment-checking path resolver. */
export class Workspace {
  /** Real path of the root (symlinks resolved). */
  readonly root: string;
  /** True on platforms whose default file systems ignore case (Windows, macOS). */
  readonly caseInsensitive: boolean;
  /** The root as given (absolute, not realpath'd), accepted as an alias in absolute inputs. */
  private readonly givenRoot: string;
  /** Cogito's own files that happen to sit in the workspace (its config holds the API key). */
  private readonly fenced: { abs: string; what: string }[] = [];
  /** Where writes are refused or need approval (see src/safety/protectedPlaces.ts). */
  private places: ProtectedPlaces;

  private constructor(root: string, givenRoot: string, caseInsensitive: boolean) {
    this.root = root;
    this.givenRoot = givenRoot;
    this.caseInsensitive = caseInsensitive;
    this.places = new ProtectedPlaces(root, undefined, caseInsensitive);
  }

  /**
   * Tells the resolver where Cogito's own home and install folder are, so writes there are
   * refused even when they sit inside the workspace (the default layout). The version-control,
   * trash and start-up-file rules apply without this.
   */
  protectOwnPlaces(own: OwnPlaces): void {
    this.places = new ProtectedPlaces(this.root, own, this.caseInsensitive);
  }

  /**
   * Opens a workspace rooted at `root`.
   * @throws Error naming the folder when it does not exist or is not a folder.
   */
  static async open(root: string, opts: WorkspaceOptions = {}): Promise<Workspace> {
    const given = path.resolve(root);
    let real: string;
    try {
      real = await fs.realpath(given);
    } catch {
      throw new Error(
        `Workspace folder not found: ${given}. Create it first or choose an existing folder.`,
      );
    }
    const st = await fs.stat(real);
    if (!st.isDirectory()) {
      throw new Error(`Workspace must be a folder, but ${given} is a file. Choose a folder.`);
    }
    const platform = opts.platform ?? process.platform;
    return new Workspace(real, given, platform === 'win32' || platform === 'darwin');
  }

  /**
   * Resolves a path argument from the model. Relative paths are taken from the root;
   * absolute paths are accepted only when inside. Containment is always checked before
   * existence, so an outside path is never reported as merely missing.
   */
  async resolve(input: string, opts: ResolveOptions = {}): Promise<ResolveResult> {
    if (typeof input !== 'string') {
      return invalid(`A path must be a string, got ${typeof input}.`);
    }
    if (input.trim() === '') {
      return invalid('The path is empty. Use "." for the workspace root.');
    }
    const shapeProblem = checkPathShape(input);
    if (shapeProblem !== undefined) return this.outside(input, shapeProblem);

    const lexical = this.lexicalPath(input);
    if (lexical === undefined) return this.outside(input);

    let real: string;
    try {
      real = await realpathLoose(lexical.abs);
    } catch (e) {
      return {
        ok: false,
        error: { kind: 'io', message: `Cannot resolve "${input}": ${errorText(e)}.` },
      };
    }
    if (this.relativeInside(this.root, real) === undefined) {
      return this.outside(input, `it leads through a symlink to ${real}`);
    }

    const fenced = this.fencedBy(real) ?? this.fencedBy(lexical.abs);
    if (fenced !== undefined) {
      return {
        ok: false,
        error: {
          kind: 'denied',
          message: `"${lexical.rel}" is ${fenced}; Cogito's tools do not read or change it. Leave it alone and carry on with other files.`,
        },
      };
    }

    let protection: Protection | undefined;
    if (opts.access === 'write') {
      protection = this.places.forWrite(lexical.rel, real);
      if (protection?.level === 'never') {
        const message =
          protection.trash === true
            ? `"${lexical.rel}" is ${protection.what}; only delete puts things there, and nothing takes them out but the user.`
            : `"${lexical.rel}" is ${protection.what}; Cogito's tools never change it, even with approval. Do not retry; leave it to the user.`;
        const kind = protection.trash === true ? 'invalid_args' : 'denied';
        return { ok: false, error: { kind, message } };
      }
    }

    if (opts.mustExist === true && !(await exists(lexical.abs))) {
      return {
        ok: false,
        error: {
          kind: 'not_found',
          message: `Nothing exists at "${lexical.rel}". Check the name with ls or find.`,
        },
      };
    }
    return { ok: true, path: protection === undefined ? lexical : { ...lexical, protection } };
  }

  /** How a place is protected for writing (see {@link ProtectedPlaces.forWrite}). */
  protectionFor(rel: string, real: string): Protection | undefined {
    return this.places.forWrite(rel, real);
  }

  /** The workspace-relative form of a real absolute path, or undefined when outside. */
  relativeOf(abs: string): string | undefined {
    return this.relativeInside(this.root, abs);
  }

  /**
   * Fences off a file or folder inside the workspace that no tool may read, list into or
   * change: Cogito's own config (it holds the API key), history and lock, when the app home
   * lies inside the workspace (the default when both are the project folder).
   */
  async fence(abs: string, what: string): Promise<void> {
    const real = await realpathLoose(path.resolve(abs)).catch(() => path.resolve(abs));
    if (this.relativeInside(this.root, real) !== undefined) this.fenced.push({ abs: real, what });
  }

  /** What fenced-off thing `abs` is or lies in, or undefined when tools may use it. */
  fencedBy(abs: string): string | undefined {
    for (const f of this.fenced) if (this.relativeInside(f.abs, abs) !== undefined) return f.what;
    return undefined;
  }

  /** What fenced-off thing lies inside the folder `abs` (so moving or copying it would carry it), if any. */
  fencedWithin(abs: string): string | undefined {
    for (const f of this.fenced) if (this.relativeInside(abs, f.abs) !== undefined) return f.what;
    return undefined;
  }

  /** True when `rel` (as returned by resolve) is `first` or lies under it, honouring case rules. */
  isUnder(rel: string, first: string): boolean {
    const head = rel.split('/')[0] ?? '';
    return this.fold(head) === this.fold(first);
  }

  /** Normalises the input and checks it stays under the root before any file system access. */
  private lexicalPath(input: string): ResolvedPath | undefined {
    if (!path.isAbsolute(input)) {
      const abs = path.resolve(this.root, input);
      const rel = this.relativeInside(this.root, abs);
      return rel === undefined ? undefined : { abs, rel };
    }
    const normal = path.resolve(input);
    const rel =
      this.relativeInside(this.root, normal) ?? this.relativeInside(this.givenRoot, normal);
    if (rel === undefined) return undefined;
    return { abs: rel === '.' ? this.root : path.join(this.root, ...rel.split('/')), rel };
  }

  /**
   * The path of `target` relative to `base` with forward slashes, or undefined when it is
   * not inside. Uses `path.relative` on case-folded strings (never `startsWith`, which
   * would let `/tmp/ws-evil` pass for `/tmp/ws`), then takes the original-case segments.
   */
  private relativeInside(base: string, target: string): string | undefined {
    const r = path.relative(this.fold(base), this.fold(target));
    if (r === '') return '.';
    if (r === '..' || r.startsWith(`..${path.sep}`) || path.isAbsolute(r)) return undefined;
    const baseCount = base.split(path.sep).filter(Boolean).length;
    return target.split(path.sep).filter(Boolean).slice(baseCount).join('/');
  }

  private fold(p: string): string {
    return this.caseInsensitive ? p.toLowerCase() : p;
  }

  private outside(input: string, reason?: string): ResolveResult {
    const shown = JSON.stringify(input);
    const why = reason === undefined ? '' : ` (${reason})`;
    return {
      ok: false,
      error: {
        kind: 'outside_workspace',
        message: `Path ${shown} is outside the workspace${why}: only paths inside ${this.root} are allowed. Use a path relative to the workspace, such as "notes/todo.md".`,
      },
    };
  }
}

function invalid(message: string): ResolveResult {
  return { ok: false, error: { kind: 'invalid_args', message } };
}

async function exists(abs: string): Promise<boolean> {
  try {
    await fs.lstat(abs);
    return true;
  } catch {
    return false;
  }
}

function errorText(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}
