import React from 'react';
import type { Lang } from '../../src/i18n/messages.js';
import { t } from '../../src/i18n/messages.js';
import { useLang } from '../i18n.js';
import { useWizard } from './context.js';
import { SelectList, type SelectItem } from './SelectList.js';
import { StepLayout } from './StepLayout.js';

/** English or Simplified Chinese; asked first, so every later screen reads in it. */
export function LanguageStep(): React.JSX.Element {
  const lang = useLang();
  const w = useWizard();
  const items: SelectItem<Lang>[] = (['en', 'zh'] as const).map((l) => ({
    key: l,
    label: t(lang, l === 'en' ? 'setup.lang.en' : 'setup.lang.zh'),
    value: l,
  }));
  return (
    <StepLayout
      title={t(lang, 'setup.language')}
      hint={t(lang, 'setup.languageHint', { file: w.file })}
      hints="list"
    >
      <SelectList
        items={items}
        initialKey={w.answers.language}
        width={w.width}
        rows={w.listRows}
        onSubmit={(item) => w.next({ language: item.value })}
        onBack={w.back}
      />
    </StepLayout>
  );
}
