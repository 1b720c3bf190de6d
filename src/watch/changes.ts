/** What changed in the workspace since the last turn, as workspace-relative paths. */
export interface WorkspaceChanges {
  created: string[];
  modified: string[];
  removed: string[];
}

export function emptyChanges(): WorkspaceChanges {
  return { created: [], modified: [], removed: [] };
}

/** How many paths a note lists per kind before it says "and N more". */
const LIST_MAX = 20;

/**
 * Folds one file event into the set. A rename arrives as removed + created; a file created
 * and then modified stays "created"; created then removed is forgotten.
 */
export function addChange(
  set: WorkspaceChanges,
  kind: 'created' | 'modified' | 'removed',
  rel: string,
): void {
  const drop = (list: string[]): boolean => {
    const i = list.indexOf(rel);
    if (i >= 0) list.splice(i, 1);
    return i >= 0;
  };
  if (kind === 'created') {
    if (drop(set.removed)) set.modified.push(rel);
    else if (!set.created.includes(rel)) set.created.push(rel);
  } else if (kind === 'modified') {
    if (!set.created.includes(rel) && !set.modified.includes(rel)) set.modified.push(rel);
  } else {
    const wasNew = drop(set.created);
    drop(set.modified);
    if (!wasNew && !set.removed.includes(rel)) set.removed.push(rel);
  }
}

export function changeCount(c: WorkspaceChanges): number {
  return c.created.length + c.modified.length + c.removed.length;
}

/** `created: a.txt, b.md; removed: old.log` with long lists cut. */
export function describeChanges(c: WorkspaceChanges): string {
  const part = (label: string, list: readonly string[]): string | undefined => {
    if (list.length === 0) return undefined;
    const shown = list.slice(0, LIST_MAX).join(', ');
    const more = list.length > LIST_MAX ? ` and ${list.length - LIST_MAX} more` : '';
    return `${label}: ${shown}${more}`;
  };
  return [part('created', c.created), part('modified', c.modified), part('removed', c.removed)]
    .filter((p): p is string => p !== undefined)
    .join('; ');
}
