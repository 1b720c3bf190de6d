import React, { useEffect, useRef, useState } from 'react';
import { Box, Text } from 'ink';
import { t } from '../../src/i18n/messages.js';
import type { CatalogModel } from '../../src/models/catalog.js';
import type { DownloadResult } from '../../src/models/download.js';
import { progressBar, progressParts, type DownloadProgress } from '../../src/models/progress.js';
import type { LocalModelsPlan } from '../../src/setup/services.js';
import { useSpinner } from '../hooks/useSpinner.js';
import { useLang } from '../i18n.js';
import { wrapText } from '../text/wrap.js';
import { useWizard } from './context.js';
import { downloadItems, fitText, machineLine } from './downloadItems.js';
import { resolveListKey } from './keys.js';
import { SelectList } from './SelectList.js';
import { StepLayout } from './StepLayout.js';
import { useStepKeys } from './useStepKeys.js';

type Note = { text: string; tone: 'error' | 'warn' };
type Phase =
  | { kind: 'loading' }
  | { kind: 'choose'; note?: Note }
  | { kind: 'downloading'; model: CatalogModel; progress?: DownloadProgress };

/**
 * The Private choice: pick a model sized to this machine (the proposal is preselected) and
 * download it with a progress bar. Esc during the download cancels it: nothing is
 * configured (config.json is written only on the last step), and the part already fetched
 * stays for the next attempt to resume. A finished, verified file answers the step.
 */
export function DownloadStep(): React.JSX.Element {
  const lang = useLang();
  const w = useWizard();
  const [plan, setPlan] = useState<LocalModelsPlan | undefined>(undefined);
  const [phase, setPhase] = useState<Phase>({ kind: 'loading' });
  const running = useRef<AbortController | undefined>(undefined);
  const spinner = useSpinner(phase.kind !== 'choose');

  const { services } = w;
  useEffect(() => {
    let live = true;
    void services.localModels().then((p) => {
      if (!live) return;
      setPlan(p);
      setPhase({ kind: 'choose' });
    });
    return () => {
      live = false;
      // Leaving the wizard mid-download (Ctrl+C) stops it too.
      running.current?.abort();
    };
  }, [services]);

  useStepKeys((input, key) => {
    if (resolveListKey(input, key) !== 'back') return;
    if (phase.kind === 'downloading') running.current?.abort();
    else w.back();
  }, phase.kind !== 'choose');

  const start = (model: CatalogModel): void => {
    const controller = new AbortController();
    running.current = controller;
    setPhase({ kind: 'downloading', model });
    const onProgress = (progress: DownloadProgress): void =>
      setPhase((p) => (p.kind === 'downloading' ? { ...p, progress } : p));
    void w.services.downloadModel(model.id, onProgress, controller.signal).then(
      (result) => finish(result, controller),
      (err: unknown) => finish({ ok: false, kind: 'network', message: String(err) }, controller),
    );
  };

  const finish = (result: DownloadResult, controller: AbortController): void => {
    if (running.current !== controller) return;
    running.current = undefined;
    if (result.ok) return w.next({ modelPath: result.path });
    const note: Note =
      controller.signal.aborted || result.kind === 'aborted'
        ? { text: t(lang, 'setup.downloadCancelled'), tone: 'warn' }
        : { text: t(lang, 'setup.downloadFailed', { message: result.message }), tone: 'error' };
    setPhase({ kind: 'choose', note });
  };

  const title = t(lang, 'setup.download');
  if (phase.kind === 'loading' || !plan) {
    return (
      <StepLayout title={title} hints="wait">
        <Text dimColor>{spinner}</Text>
      </StepLayout>
    );
  }
  if (phase.kind === 'downloading') return <Progress phase={phase} plan={plan} spinner={spinner} />;

  return (
    <ChooseModel
      plan={plan}
      note={phase.note}
      onStart={start}
      onRefuse={(note) => setPhase({ kind: 'choose', note })}
    />
  );
}

/** The catalogue to pick from, the proposal preselected; a model that does not fit is refused. */
function ChooseModel(p: {
  plan: LocalModelsPlan;
  note: Note | undefined;
  onStart(model: CatalogModel): void;
  onRefuse(note: Note): void;
}): React.JSX.Element {
  const lang = useLang();
  const w = useWizard();
  const { plan } = p;
  const message =
    p.note ??
    (plan.proposal.proposed === undefined
      ? { text: t(lang, 'setup.downloadNothingFits'), tone: 'warn' as const }
      : undefined);
  return (
    <StepLayout
      title={t(lang, 'setup.download')}
      hint={machineLine(lang, plan)}
      hints="list"
      message={message}
    >
      <SelectList
        items={downloadItems(lang, plan)}
        initialKey={plan.proposal.proposed}
        width={w.width}
        rows={w.listRows}
        onSubmit={(item) => {
          const why = fitText(lang, plan, item.value);
          if (!why) return p.onStart(item.value.model);
          const text = t(lang, 'setup.downloadRefused', { model: item.value.model.label, why });
          p.onRefuse({ text, tone: 'error' });
        }}
        onBack={w.back}
      />
    </StepLayout>
  );
}

function Progress(p: {
  phase: Extract<Phase, { kind: 'downloading' }>;
  plan: LocalModelsPlan;
  spinner: string;
}): React.JSX.Element {
  const lang = useLang();
  const w = useWizard();
  const { model, progress } = p.phase;
  const done = progress?.total !== undefined && progress.received >= progress.total;
  const barWidth = Math.max(10, Math.min(50, w.width - 2));
  const line = progress
    ? done
      ? t(lang, 'setup.downloadVerifying')
      : t(lang, 'setup.downloadProgress', progressParts(progress))
    : p.spinner;
  return (
    <StepLayout title={t(lang, 'setup.download')} hints="wait">
      {wrapText(t(lang, 'setup.downloading', { model: model.label, dir: p.plan.dir }), w.width).map(
        (l, i) => (
          <Text key={i}>{l}</Text>
        ),
      )}
      <Box marginTop={1} flexDirection="column">
        {progress && <Text color="cyan">{progressBar(progress, barWidth)}</Text>}
        <Text dimColor>{line}</Text>
      </Box>
    </StepLayout>
  );
}
