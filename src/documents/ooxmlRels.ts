/**
 * An OOXML part's relationships (`_rels/<part>.rels`): which slide, chart or notes page an
 * `r:id` names, with targets resolved to package paths.
 */
import { kids, parseXml } from './xmlTree.js';
import type { ZipParts } from './zipParts.js';

export interface Relationship {
  /** The last segment of the type URI: `slide`, `notesSlide`, `chart`, `image`… */
  readonly type: string;
  /** The package path of the target part; external targets are left as written. */
  readonly target: string;
  readonly external: boolean;
}

export function relsOf(parts: ZipParts, part: string, name: string): Map<string, Relationship> {
  const slash = part.lastIndexOf('/');
  const dir = part.slice(0, slash + 1);
  const relsPart = `${dir}_rels/${part.slice(slash + 1)}.rels`;
  const xml = parts.text(relsPart);
  const rels = new Map<string, Relationship>();
  if (xml === undefined) return rels;
  for (const rel of kids(parseXml(xml, relsPart, name), 'Relationship')) {
    const id = rel.attrs['Id'];
    const target = rel.attrs['Target'] ?? '';
    if (!id) continue;
    const external = rel.attrs['TargetMode'] === 'External';
    rels.set(id, {
      type: (rel.attrs['Type'] ?? '').split('/').pop() ?? '',
      target: external ? target : resolvePart(dir, target),
      external,
    });
  }
  return rels;
}

/** `ppt/slides/` + `../charts/chart1.xml` → `ppt/charts/chart1.xml`; `/ppt/x` → `ppt/x`. */
function resolvePart(dir: string, target: string): string {
  const segments = target.startsWith('/') ? [] : dir.split('/').filter(Boolean);
  for (const segment of target.split('/')) {
    if (segment === '..') segments.pop();
    else if (segment && segment !== '.') segments.push(segment);
  }
  return segments.join('/');
}
