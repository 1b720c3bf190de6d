import type { ConfigIssue } from './issues.js';

/**
 * Renders issues for the terminal, one block per issue: where, what is wrong, the fix.
 * Plain text (no colour codes) so it reads the same in a log or a pipe.
 */
export function formatConfigIssues(issues: readonly ConfigIssue[], file: string): string {
  const count = issues.length === 1 ? '1 problem' : `${issues.length} problems`;
  // A bad flag or variable is that flag's problem, not the file's (issue 33: a missing
  // --workspace folder was reported as a config.json problem, "the file was not changed").
  if (issues.length > 0 && issues.every((i) => i.origin !== undefined)) {
    const lines = [`Cogito cannot start: ${count} with what it was given`, ''];
    for (const issue of issues) {
      lines.push(`  ✗ ${issue.origin}: ${issue.problem.replace(` (from ${issue.origin})`, '')}`);
      lines.push(`    fix: ${issue.fix}`);
    }
    return lines.join('\n');
  }
  const lines = [`Cogito cannot start: ${count} with the settings (${file})`, ''];
  for (const issue of issues) {
    const where =
      issue.field === '(file)'
        ? issue.line !== undefined
          ? `${file}:${issue.line}:${issue.column ?? 1}`
          : 'config.json'
        : issue.field;
    lines.push(`  ✗ ${where}: ${issue.problem}`);
    lines.push(`    fix: ${issue.fix}`);
  }
  lines.push('', 'The file was not changed. Fix it and start Cogito again.');
  return lines.join('\n');
}
