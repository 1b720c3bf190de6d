import type { RecoveryReport } from '../journal/recover.js';

/** The notice shown when the first turn finished a crash record (none for a clean start). */
export function crashNotice(report: RecoveryReport): string | undefined {
  const refused = report.refused ?? [];
  const lines: string[] = [];
  if (report.results > 0 || report.rolledBack > 0) {
    lines.push(
      `The last run was cut off by a crash: ${report.results} tool result(s) recorded as interrupted, ${report.rolledBack} half-made change(s) undone.`,
    );
  }
  if (refused.length > 0) {
    // The journal is data: what did not pass its checks is named, and was not acted on.
    const shown = refused.slice(0, 10).map((r) => `  ${r}`);
    if (refused.length > 10) shown.push(`  … and ${refused.length - 10} more`);
    lines.push(`The change journal had entries Cogito did not act on:\n${shown.join('\n')}`);
  }
  return lines.length > 0 ? lines.join('\n') : undefined;
}
