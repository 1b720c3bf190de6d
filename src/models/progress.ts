/**
 * Download progress: a meter that turns byte counts into speed and time left, and the
 * one-line and bar renderings the CLI and the wizard show.
 */

/** One progress report. */
export interface DownloadProgress {
  /** Bytes on disk so far, including any resumed part. */
  received: number;
  /** The whole file's size, when the server said it. */
  total: number | undefined;
  /** Average over this session (not counting the resumed part). */
  bytesPerSecond: number;
  /** Undefined until the speed and the total are known. */
  etaSeconds: number | undefined;
  /** Bytes that were already on disk when this download started. */
  resumedFrom: number;
}

/** Measures speed from the first byte of this session; `now` is injectable for tests. */
export function createProgressMeter(resumedFrom: number, now: () => number = Date.now) {
  const started = now();
  return (received: number, total: number | undefined): DownloadProgress => {
    const seconds = (now() - started) / 1000;
    const fresh = received - resumedFrom;
    const bytesPerSecond = seconds > 0 ? fresh / seconds : 0;
    const etaSeconds =
      total !== undefined && bytesPerSecond > 0
        ? Math.max(0, (total - received) / bytesPerSecond)
        : undefined;
    return { received, total, bytesPerSecond, etaSeconds, resumedFrom };
  };
}

/** `1.2 GB`, `340 MB`, `12 KB`: decimal units, like the sizes sources publish. */
export function formatBytes(n: number): string {
  if (n >= 1e9) return `${(n / 1e9).toFixed(2)} GB`;
  if (n >= 1e6) return `${(n / 1e6).toFixed(1)} MB`;
  if (n >= 1e3) return `${Math.round(n / 1e3)} KB`;
  return `${n} B`;
}

/** `45 s`, `3 min 5 s`, `1 h 2 min`. */
function formatDuration(seconds: number): string {
  const s = Math.round(seconds);
  if (s < 60) return `${s} s`;
  if (s < 3600) return `${Math.floor(s / 60)} min ${s % 60} s`;
  return `${Math.floor(s / 3600)} h ${Math.floor((s % 3600) / 60)} min`;
}

/** Numbers in a progress line, language-neutral; labels come from the message table. */
export function progressParts(p: DownloadProgress): {
  done: string;
  percent: string;
  speed: string;
  eta: string;
} {
  return {
    done: p.total
      ? `${formatBytes(p.received)} / ${formatBytes(p.total)}`
      : formatBytes(p.received),
    percent: p.total ? `${Math.floor((100 * p.received) / p.total)}%` : '',
    speed: `${formatBytes(p.bytesPerSecond)}/s`,
    eta: p.etaSeconds === undefined ? '?' : formatDuration(p.etaSeconds),
  };
}

/** A bar of `width` cells: `█████░░░░░`. */
export function progressBar(p: DownloadProgress, width: number): string {
  const share = p.total ? Math.min(1, p.received / p.total) : 0;
  const full = Math.round(share * width);
  return '█'.repeat(full) + '░'.repeat(Math.max(0, width - full));
}
