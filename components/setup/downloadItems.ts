/** The Private choice's list: each catalogue model with its size, needs and fit, as text. */
import { t, type Lang } from '../../src/i18n/messages.js';
import { CATALOG, type CatalogModel } from '../../src/models/catalog.js';
import { formatBytes } from '../../src/models/progress.js';
import { DISK_RESERVE_BYTES, type FitProblem } from '../../src/models/propose.js';
import type { LocalModelsPlan } from '../../src/setup/services.js';
import type { SelectItem } from './SelectList.js';

/** An item's value: the model, and why it does not fit (empty when it does). */
interface DownloadChoice {
  model: CatalogModel;
  problems: FitProblem[];
}

/** Why `model` does not fit, in words; '' when it fits. */
export function fitText(lang: Lang, plan: LocalModelsPlan, c: DownloadChoice): string {
  const { machine } = plan;
  return c.problems
    .map((p) =>
      p === 'disk'
        ? t(lang, 'setup.downloadNoDisk', {
            need: formatBytes(c.model.approxBytes + DISK_RESERVE_BYTES),
            free: formatBytes(machine.freeDiskBytes),
          })
        : t(lang, 'setup.downloadNoMemory', {
            need: formatBytes(c.model.ramBytes),
            total: formatBytes(machine.totalMemBytes),
          }),
    )
    .join('; ');
}

/** One row per catalogue model, the proposed one marked. */
export function downloadItems(lang: Lang, plan: LocalModelsPlan): SelectItem<DownloadChoice>[] {
  return CATALOG.map((model) => {
    const problems = plan.proposal.fits.find((f) => f.model.id === model.id)?.problems ?? [];
    const choice = { model, problems };
    const misfit = fitText(lang, plan, choice);
    const detail = misfit
      ? misfit
      : t(lang, 'setup.downloadItem', {
          size: formatBytes(model.approxBytes),
          ram: formatBytes(model.ramBytes),
          goodAt: model.goodAt[lang],
        });
    const proposed = plan.proposal.proposed === model.id;
    return {
      key: model.id,
      label: proposed ? t(lang, 'setup.downloadProposed', { label: model.label }) : model.label,
      detail,
      value: choice,
    };
  });
}

/** The line about this machine above the list. */
export function machineLine(lang: Lang, plan: LocalModelsPlan): string {
  const m = plan.machine;
  return t(lang, 'setup.downloadMachine', {
    mem: formatBytes(m.totalMemBytes),
    threads: m.threads,
    disk: formatBytes(m.freeDiskBytes),
    dir: plan.dir,
  });
}
