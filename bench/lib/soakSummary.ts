/** The soak's rows: each checkpoint against the one at 200 requests, with the targets. */
import type { Metric } from './report.js';
import type { Checkpoint } from './soakReadings.js';

/** The RSS target for a checkpoint: 1.2× up to 2,000 requests, 1.3× beyond (to 10,000). */
export const rssTarget = (requests: number): number => (requests <= 2000 ? 1.2 : 1.3);

/** Retained heap after a full collection may rise at most this much from 200 requests on. */
export const HEAP_FLAT_MB = 10;

export function soakMetrics(label: string, points: Checkpoint[], seconds: number): Metric[] {
  const base = points.find((c) => c.requests === 200);
  const last = points.at(-1);
  if (!base || !last || last === base)
    return [{ name: `${label}: too few requests to compare (fewer than 201)`, value: '—' }];
  const rows: Metric[] = [
    {
      name: `${label}: RSS (median of 3) at ${points.map((c) => c.requests).join(' / ')} requests`,
      value: `${points.map((c) => c.rssMB).join(' / ')} MB`,
      raw: last.rssMB,
    },
  ];
  for (const c of points.filter((p) => p !== base)) {
    const ratio = c.rssMB / base.rssMB;
    const target = rssTarget(c.requests);
    rows.push({
      name: `${label}: RSS at ${c.requests} ÷ RSS at 200`,
      value: `${ratio.toFixed(2)}×`,
      raw: ratio,
      target: `≤ ${target}×`,
      met: ratio <= target,
    });
  }
  const h0 = base.afterGc?.heapUsedMB;
  const hs = points.map((c) => c.afterGc?.heapUsedMB);
  const defined = hs.filter((h): h is number => h !== undefined);
  const rise = h0 === undefined || defined.length === 0 ? NaN : Math.max(...defined) - h0;
  rows.push({
    name: `${label}: heap retained after a full GC at ${points.map((c) => c.requests).join(' / ')}`,
    value: `${hs.map((h) => h ?? '?').join(' / ')} MB (most above 200: ${rise.toFixed(1)} MB)`,
    raw: rise,
    target: `within ${HEAP_FLAT_MB} MB`,
    met: rise <= HEAP_FLAT_MB,
  });
  rows.push({
    name: `${label}: open fds / sockets (medians) at ${points.map((c) => c.requests).join(' / ')}`,
    value: points.map((c) => `${c.fds}/${c.sockets}`).join(' → '),
    raw: last.fds,
    target: 'flat',
    met: points.every((c) => c.fds <= base.fds),
  });
  rows.push({
    name: `${label}: seconds for ${last.requests} requests (1,000 requests: ${Math.round((seconds / last.requests) * 1000)} s)`,
    value: `${seconds}`,
    raw: seconds,
  });
  return rows;
}
