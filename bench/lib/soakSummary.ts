/** The soak's samples and the rows of its table. */
import type { Metric } from './report.js';

export interface SoakSample {
  turn: number;
  seconds: number;
  rssMB: number;
  heapUsedMB?: number;
  externalMB?: number;
  arrayBuffersMB?: number;
  fds: number;
  sockets: number;
  heapAfterGcMB?: number;
  structures?: Record<string, number | undefined>;
}

const at = (samples: SoakSample[], turn: number): SoakSample | undefined =>
  samples.find((s) => s.turn === turn);

/** RSS at 200 / 1,000 / the end, the end/200 ratio (target ≤ 1.3×), fds and sockets. */
export function soakMetrics(label: string, samples: SoakSample[], heap = false): Metric[] {
  const last = samples.at(-1);
  const s200 = at(samples, 200);
  if (!last || !s200) return [{ name: `${label}: too few turns to compare`, value: '—' }];
  const s1000 = at(samples, 1000);
  const ratio = last.rssMB / s200.rssMB;
  const rows: Metric[] = [
    {
      name: `${label}: RSS at 200 / 1000 / ${last.turn} turns`,
      value: `${s200.rssMB} / ${s1000?.rssMB ?? '—'} / ${last.rssMB} MB`,
      raw: last.rssMB,
    },
    {
      name: `${label}: RSS at ${last.turn} ÷ RSS at 200`,
      value: `${ratio.toFixed(2)}×`,
      raw: ratio,
      target: '≤ 1.3×',
      met: ratio <= 1.3,
    },
    {
      name: `${label}: open fds / sockets at 200 → ${last.turn}`,
      value: `${s200.fds} / ${s200.sockets} → ${last.fds} / ${last.sockets}`,
      raw: last.fds,
      target: 'flat',
      met: last.fds <= s200.fds && last.sockets <= s200.sockets,
    },
  ];
  if (heap && s200.heapAfterGcMB !== undefined && last.heapAfterGcMB !== undefined) {
    rows.push({
      name: `${label}: heap after full GC at 200 → ${last.turn}`,
      value: `${s200.heapAfterGcMB} → ${last.heapAfterGcMB} MB`,
      raw: last.heapAfterGcMB,
    });
  }
  rows.push({
    name: `${label}: seconds for ${last.turn} turns`,
    value: `${last.seconds}`,
    raw: last.seconds,
  });
  return rows;
}
