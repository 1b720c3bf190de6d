/**
 * File-level import circles of a source tree, as /work/shared/tools/file-cycles.mjs counts
 * them (CI has no /work/shared, so the logic lives here): every relative import, export-from
 * and dynamic import between .ts/.tsx files, type imports included; each set of files that
 * import each other in a circle (a strongly connected component of more than one file).
 */
import fs from 'node:fs';
import path from 'node:path';
import { IMPORT, sourceFiles } from './folderGraph.js';

/**
 * The circles among the files under `dirs` (relative to `root`), largest first, each set
 * naming its files relative to `root` with `/` separators.
 */
export function fileCircles(rootDir: string, dirs: readonly string[]): string[][] {
  // Absolute, like the paths imports resolve to, so the two can be compared.
  const root = path.resolve(rootDir);
  const files = dirs
    .map((d) => path.join(root, d))
    .filter((d) => fs.existsSync(d))
    .flatMap((d) => sourceFiles(d));
  const known = new Set(files);
  const edges = new Map<string, Set<string>>(files.map((f) => [f, new Set<string>()]));
  for (const file of files) {
    for (const match of fs.readFileSync(file, 'utf8').matchAll(IMPORT)) {
      const spec = match[1] ?? match[2] ?? '';
      if (!spec.startsWith('.')) continue;
      const target = resolveImport(file, spec, known);
      if (target !== undefined && target !== file) edges.get(file)!.add(target);
    }
  }
  const rel = (f: string): string => path.relative(root, f).split(path.sep).join('/');
  return stronglyConnected(edges)
    .filter((set) => set.length > 1)
    .map((set) => set.map(rel))
    .sort((a, b) => b.length - a.length);
}

/** The file a relative specifier names (`./x.js` is x.ts or x.tsx, a folder its index). */
function resolveImport(from: string, spec: string, known: ReadonlySet<string>): string | undefined {
  const base = path.resolve(path.dirname(from), spec.replace(/\.(m?js|jsx)$/, ''));
  const candidates = [
    `${base}.ts`,
    `${base}.tsx`,
    path.join(base, 'index.ts'),
    path.join(base, 'index.tsx'),
    base,
  ];
  return candidates.find((c) => known.has(c));
}

/** Tarjan's strongly connected components of a graph given as node → the nodes it imports. */
function stronglyConnected(edges: ReadonlyMap<string, ReadonlySet<string>>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const sets: string[][] = [];
  const visit = (v: string): void => {
    index.set(v, next);
    low.set(v, next);
    next++;
    stack.push(v);
    onStack.add(v);
    for (const w of edges.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) {
        low.set(v, Math.min(low.get(v)!, index.get(w)!));
      }
    }
    if (low.get(v) !== index.get(v)) return;
    const set: string[] = [];
    let w: string;
    do {
      w = stack.pop()!;
      onStack.delete(w);
      set.push(w);
    } while (w !== v);
    sets.push(set);
  };
  for (const v of edges.keys()) if (!index.has(v)) visit(v);
  return sets;
}
