import { t, type Lang } from '../i18n/messages.js';
import type { RecoveryReport } from './recover.js';

/** The notice shown when the first turn finished a crash record (none for a clean start). */
export function crashNotice(report: RecoveryReport, lang: Lang = 'en'): string | undefined {
  const refused = report.refused ?? [];
  const lines: string[] = [];
  if (report.results > 0 || report.rolledBack > 0) {
    const { results, rolledBack } = report;
    lines.push(t(lang, 'notice.crashCutOff', { results, rolledBack }));
  }
  if (refused.length > 0) {
    // The journal is data: what did not pass its checks is named, and was not acted on.
    const shown = refused.slice(0, 10).map((r) => `  ${r}`);
    if (refused.length > 10)
      shown.push(`  ${t(lang, 'notice.more', { more: refused.length - 10 })}`);
    lines.push(t(lang, 'notice.crashRefused', { list: shown.join('\n') }));
  }
  return lines.length > 0 ? lines.join('\n') : undefined;
}
