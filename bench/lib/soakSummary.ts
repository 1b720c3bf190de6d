/** The soak's rows: each checkpoint against the one at 200 requests, with the targets. */
import type { Metric } from './report.js';
import type { Checkpoint } from './soakReadings.js';

/** The RSS target for a checkpoint: 1.2× up to 2,000 requests, 1.3× beyond (to 10,000). */
export const rssTarget = (requests: number): number => (requests <= 2000 ? 1.2 : 1.3);

/** Retained heap after a full collection may rise at most this much from 200 requests on. */
export const HEAP_FLAT_MB = 10;

/** Sockets a reading may catch open in passing: a model request's, a client's. */
const SOCKETS_IN_FLIGHT = 2;

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
  // Files are held to flat; sockets may differ by what is in flight at a reading (the model
  // request's connection, a `cogito send` client's), so they are held to that much above.
  const files = (c: Checkpoint): number => c.fds - c.sockets;
  rows.push({
    name: `${label}: open files, fds not sockets (medians) at ${points.map((c) => c.requests).join(' / ')}`,
    value: points.map(files).join(' → '),
    raw: files(last),
    target: 'flat',
    met: points.every((c) => files(c) <= files(base)),
  });
  rows.push({
    name: `${label}: open sockets (medians)`,
    value: points.map((c) => c.sockets).join(' → '),
    raw: last.sockets,
    target: `≤ ${base.sockets + SOCKETS_IN_FLIGHT} (at 200 + in flight)`,
    met: points.every((c) => c.sockets <= base.sockets + SOCKETS_IN_FLIGHT),
  });
  rows.push({
    name: `${label}: seconds for ${last.requests} requests (1,000 requests: ${Math.round((seconds / last.requests) * 1000)} s)`,
    value: `${seconds}`,
    raw: seconds,
  });
  return rows;
}
