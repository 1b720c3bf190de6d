/**
 * The one door into Ink's internals. Everything the screen does with Ink beyond its public
 * API goes through here, and only while the installed Ink is the one it was written for:
 * - the frame step: `Output.prototype.get` replaced by `composeFrame` (fastOutput.ts), which
 *   reads the `Output`'s private operations (their shape is declared once, in
 *   inkOutputShape.ts);
 * - `encodeRow`: a row of styled text encoded the way Ink encodes frame rows (the echo paints
 *   rows that must match the next frame byte for byte);
 * - `inkInputEvents`/`emitKeyToInk`: the raw input events behind `useStdin()`, where keys
 *   that arrived together are handed back to Ink one at a time;
 * - `inkTextFunctions`: Ink's `measureText` and `wrapText`, whose module-level caches never
 *   let anything go; `inkTextCaches.ts` reaches and bounds them through these.
 *
 * The guard: Ink's own package.json says which Ink runs. On any version outside
 * `INK_RANGE`, nothing private is used: Ink's own `get` stays, rows are not encoded (the echo
 * waits for frames), keys are not re-emitted, and `inkNotice` gives the line the screen shows
 * among its notices. A bump of Ink is then slower, never silently wrong (Ink 7 changed
 * `Output.get` for wide characters, which the Chinese UI depends on).
 *
 * Why static imports, not `createRequire` at run time: the production build bundles Ink into
 * dist/ and the installed package carries no node_modules/ink (it is a devDependency), so the
 * only package.json that describes the Ink that runs is the one bundled beside it. Ink's
 * exports map offers only "."; these files are imported by path, the same files Ink's
 * renderer imports, hence the same `Output` class under tsx, vitest and the bundle. An Ink
 * without build/output.js fails the typecheck and the build, loudly, not at a user's screen.
 */
import type { EventEmitter } from 'node:events';
import Output from '../../node_modules/ink/build/output.js';
import measureText from '../../node_modules/ink/build/measure-text.js';
import wrapText from '../../node_modules/ink/build/wrap-text.js';
import inkPackage from '../../node_modules/ink/package.json' with { type: 'json' };
import { t, type Lang } from '../../src/i18n/messages.js';
import { composeFrame, type FrameResult } from './fastOutput.js';
import type { InkOutputState } from './inkOutputShape.js';

/** The Ink versions whose internals this door was written against and tested with. */
export const INK_RANGE = Object.freeze({ major: 6, minor: 8, label: '6.8.x' });

/** What the door decided for one Ink version. */
export interface InkDoor {
  /** The version read from Ink's package.json (undefined when it had none). */
  version: string | undefined;
  /** Whether Ink's internals may be used. */
  supported: boolean;
}

/** The door for `version` (pure: tests inject another version). */
export function checkInk(version: string | undefined): InkDoor {
  const m = /^(\d+)\.(\d+)\.\d+/.exec(version ?? '');
  const supported =
    m !== null && Number(m[1]) === INK_RANGE.major && Number(m[2]) === INK_RANGE.minor;
  return { version, supported };
}

/**
 * The notice line for the user when the door is shut (what runs instead, and how to get the
 * fast path back); undefined when it is open. The screen shows it among its notices.
 */
export function inkNotice(door: InkDoor, lang: Lang): string | undefined {
  if (door.supported) return undefined;
  return t(lang, 'ink.unsupported', { found: door.version ?? '?', range: INK_RANGE.label });
}

const installed: InkDoor = checkInk((inkPackage as { version?: string }).version);

/** The door for the Ink that runs in this process. */
export function inkDoor(): InkDoor {
  return installed;
}

type Get = (this: Output) => FrameResult;

/** Ink's own `get`, as it was before `installFastOutput` (tests compare against it). */
export const inkGet: Get = Output.prototype.get;

/** The replacement for `Output.prototype.get`: the same frame, with work kept across frames. */
export const fastGet: Get = function fastGet(this: Output): FrameResult {
  return composeFrame(this as unknown as InkOutputState);
};

/** Ink's private `Output` class, for tests that compare the two `get`s on the same operations. */
export { Output as InkOutput };

/**
 * Puts `fastGet` in place of Ink's `Output.prototype.get`, once (calling it again does
 * nothing), when `door` says the Ink is the one it was written for. `COGITO_INK_OUTPUT=ink`
 * keeps Ink's own, to compare in a benchmark or to rule this out when a frame looks wrong.
 * Returns whether the fast path is in place.
 */
export function installFastOutput(
  env: NodeJS.ProcessEnv = process.env,
  door: InkDoor = inkDoor(),
): boolean {
  if (!door.supported || env.COGITO_INK_OUTPUT === 'ink') return false;
  Output.prototype.get = fastGet;
  return true;
}

/** Puts Ink's own `get` back (tests compare both on the same tree). */
export function uninstallFastOutput(): void {
  Output.prototype.get = inkGet;
}

/** Whether Ink's `Output` uses `fastGet` now. */
export function fastOutputInstalled(): boolean {
  return Output.prototype.get === fastGet;
}

/**
 * The frame line Ink makes of `text` written at column 0 of a row `width` wide: Ink
 * re-encodes every row's escape codes while it composes a frame, so text painted outside Ink
 * must go through the same step to match the frame byte for byte. Undefined when the door is
 * shut: then nothing may be painted outside Ink's frames.
 */
export function encodeRow(
  text: string,
  width: number,
  door: InkDoor = inkDoor(),
): string | undefined {
  if (!door.supported) return undefined;
  const out = new Output({ width, height: 1 });
  out.write(0, 0, text, { transformers: [] });
  return out.get().output;
}

/** What `useStdin()` returns that this door reads (Ink marks the field internal). */
interface StdinWithEvents {
  internal_eventEmitter?: EventEmitter;
}

/**
 * Ink's raw input events (each chunk read from stdin, before Ink decodes it), or undefined
 * when the door is shut: then keys go to `useInput` as Ink reports them, a run of keys that
 * arrived together as one input.
 */
export function inkInputEvents(
  stdin: unknown,
  door: InkDoor = inkDoor(),
): EventEmitter | undefined {
  if (!door.supported) return undefined;
  return (stdin as StdinWithEvents).internal_eventEmitter;
}

/** Hands `data` to Ink as if it had just been read from stdin (Ink decodes it as one key). */
export function emitKeyToInk(events: EventEmitter, data: string): void {
  events.emit('input', data);
}

/**
 * Ink's text measure and wrap, the modules whose caches `inkTextCaches.ts` bounds; undefined
 * when the door is shut (another Ink may keep its caches differently, or none).
 */
export function inkTextFunctions(
  door: InkDoor,
): { measureText: typeof measureText; wrapText: typeof wrapText } | undefined {
  return door.supported ? { measureText, wrapText } : undefined;
}
