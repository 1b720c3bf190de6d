/**
 * The folder-level import graph of a source tree, as /work/shared/tools/folder-cycles.mjs
 * counts it: every relative import, export-from and dynamic import, type imports included;
 * a subfolder counts as its top folder (src/tools/web is tools).
 */
import fs from 'node:fs';
import path from 'node:path';

export type FolderGraph = Map<string, Map<string, string>>;

/** A relative import, export-from or dynamic import (type imports too): the specifier. */
export const IMPORT =
  /(?:import|export)\s[^'"]*?from\s*['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g;

/** Every .ts/.tsx file under a folder. */
export function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return /\.tsx?$/.test(entry.name) && !entry.name.endsWith('.d.ts') ? [full] : [];
  });
}

/** folder → (folder it imports → one file that does, to name in a failure). */
export function folderGraph(dir: string): FolderGraph {
  const topOf = (file: string): string | undefined => {
    const rel = path.relative(dir, file);
    return rel.startsWith('..') || !rel.includes(path.sep) ? undefined : rel.split(path.sep)[0];
  };
  const graph: FolderGraph = new Map();
  for (const file of sourceFiles(dir)) {
    const from = topOf(file);
    if (from === undefined) continue;
    for (const match of fs.readFileSync(file, 'utf8').matchAll(IMPORT)) {
      const spec = match[1] ?? match[2] ?? '';
      if (!spec.startsWith('.')) continue;
      const to = topOf(path.resolve(path.dirname(file), spec));
      if (to === undefined || to === from) continue;
      if (!graph.has(from)) graph.set(from, new Map());
      const edges = graph.get(from)!;
      if (!edges.has(to)) edges.set(to, path.relative(dir, file));
    }
  }
  return graph;
}

/**
 * A cycle in a graph given as node → the nodes it points to, as the list of nodes around it
 * (first node repeated at the end), or undefined when there is none (a topological order
 * exists).
 */
export function findCycle(edges: ReadonlyMap<string, Iterable<string>>): string[] | undefined {
  const state = new Map<string, 'open' | 'done'>();
  const stack: string[] = [];
  const visit = (node: string): string[] | undefined => {
    if (state.get(node) === 'done') return undefined;
    if (state.get(node) === 'open') return [...stack.slice(stack.indexOf(node)), node];
    state.set(node, 'open');
    stack.push(node);
    for (const next of edges.get(node) ?? []) {
      const cycle = visit(next);
      if (cycle) return cycle;
    }
    stack.pop();
    state.set(node, 'done');
    return undefined;
  };
  for (const node of edges.keys()) {
    const cycle = visit(node);
    if (cycle) return cycle;
  }
  return undefined;
}
