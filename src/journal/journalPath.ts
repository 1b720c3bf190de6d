/**
 * The form in which the journal records a path: where the change really lands, with every
 * folder on the way resolved (a change made through `docs -> documentation` is recorded as
 * `documentation/…`). Undo and rollback then reach the path without following any symlink
 * (see `place.ts`), so a link found on it later is one planted since, and is refused.
 */
import path from 'node:path';
import { realpathLoose } from '../core/realpath.js';
import type { Workspace } from '../tools/workspace.js';

/**
 * The journal form of the lexical path `abs`, or undefined when it leads outside (the tool
 * then refuses it itself). `followFinal`: a final symlink is followed too, as create and
 * edit write through it; move, copy and delete act on the link itself.
 */
export async function journalRel(
  ws: Workspace,
  abs: string,
  followFinal: boolean,
): Promise<string | undefined> {
  try {
    if (followFinal) return ws.relativeOf(await realpathLoose(abs));
    const parent = ws.relativeOf(await realpathLoose(path.dirname(abs)));
    if (parent === undefined) return undefined;
    const name = path.basename(abs);
    return parent === '.' ? name : `${parent}/${name}`;
  } catch {
    return undefined;
  }
}
