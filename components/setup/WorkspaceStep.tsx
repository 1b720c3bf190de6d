import React, { useState } from 'react';
import { t } from '../../src/i18n/messages.js';
import type { WorkspaceCheck } from '../../src/setup/workspace.js';
import { useLang } from '../i18n.js';
import { useWizard } from './context.js';
import { StepLayout } from './StepLayout.js';
import { TextField } from './TextField.js';

type Problem = Extract<WorkspaceCheck, { ok: false }>;

/** The folder Cogito may work in; it must already exist (the wizard creates nothing). */
export function WorkspaceStep(): React.JSX.Element {
  const lang = useLang();
  const w = useWizard();
  const [problem, setProblem] = useState<Problem | undefined>(undefined);
  const [busy, setBusy] = useState(false);
  const text = (p: Problem): string =>
    p.problem === 'empty'
      ? t(lang, 'setup.workspaceEmpty')
      : p.problem === 'missing'
        ? t(lang, 'setup.workspaceMissing', { path: p.path })
        : t(lang, 'setup.workspaceNotFolder', { path: p.path });
  return (
    <StepLayout
      title={t(lang, 'setup.workspace')}
      hint={t(lang, 'setup.workspaceHint')}
      hints="field"
      message={problem ? { text: text(problem), tone: 'error' } : undefined}
    >
      <TextField
        initial={w.answers.workspace}
        width={w.width}
        active={!busy}
        onChange={() => setProblem(undefined)}
        onSubmit={(value) => {
          setBusy(true);
          void w.services.checkWorkspace(value).then((r) => {
            setBusy(false);
            if (r.ok) w.next({ workspace: r.path });
            else setProblem(r);
          });
        }}
        onBack={w.back}
      />
    </StepLayout>
  );
}
