import React from 'react';
import { t } from '../../src/i18n/messages.js';
import { useLang } from '../i18n.js';
import { useWizard } from './context.js';
import { SelectList, type SelectItem } from './SelectList.js';
import { StepLayout } from './StepLayout.js';

/** The persona, each with its one-line description in the chosen language. */
export function PersonaStep(): React.JSX.Element {
  const lang = useLang();
  const w = useWizard();
  const items: SelectItem<string>[] = w.personas.map((p) => ({
    key: p.id,
    label: lang === 'zh' ? p.nameZh : p.name,
    detail: lang === 'zh' ? (p.descriptionZh ?? p.description) : p.description,
    value: p.id,
  }));
  // No persona file could be read: offer the configured one, so the step can still be passed
  // (the app falls back to its built-in voice and says so).
  if (items.length === 0)
    items.push({ key: w.answers.persona, label: w.answers.persona, value: w.answers.persona });
  return (
    <StepLayout title={t(lang, 'setup.persona')} hint={t(lang, 'setup.personaHint')} hints="list">
      <SelectList
        items={items}
        initialKey={w.answers.persona}
        width={w.width}
        rows={w.listRows}
        onSubmit={(item) => w.next({ persona: item.value })}
        onBack={w.back}
      />
    </StepLayout>
  );
}
