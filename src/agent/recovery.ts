import type { RecoveryReport } from '../journal/recover.js';

/** The notice shown when the first turn finished a crash record (none for a clean start). */
export function crashNotice(report: RecoveryReport): string | undefined {
  if (report.results === 0 && report.rolledBack === 0) return undefined;
  return `The last run was cut off by a crash: ${report.results} tool result(s) recorded as interrupted, ${report.rolledBack} half-made change(s) undone.`;
}
