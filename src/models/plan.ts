/**
 * Before a download: what the model needs and whether this machine has it. Shared by
 * `--download-model` and the wizard so both refuse the same way.
 */
import { formatBytes } from './progress.js';
import type { ModelSource } from './catalog.js';
import { checkFit, DISK_RESERVE_BYTES, type FitProblem, type MachineProfile } from './propose.js';

interface DownloadPlan {
  source: ModelSource;
  /** Disk the file needs (with the reserve), when its size is known in advance. */
  diskBytes: number | undefined;
  /** Memory it needs to run, when known. */
  ramBytes: number | undefined;
  problems: FitProblem[];
}

/** The plan for `source` on `machine`. A URL or `hf:` file of unknown size is not pre-checked. */
export function planDownload(source: ModelSource, machine: MachineProfile): DownloadPlan {
  const model = source.model;
  if (!model) return { source, diskBytes: undefined, ramBytes: undefined, problems: [] };
  return {
    source,
    diskBytes: model.approxBytes + DISK_RESERVE_BYTES,
    ramBytes: model.ramBytes,
    problems: checkFit(model, machine),
  };
}

/** Why the plan is refused, in one English sentence naming the fix; undefined when it fits. */
export function refusal(
  plan: DownloadPlan,
  machine: MachineProfile,
  dir: string,
): string | undefined {
  const parts: string[] = [];
  if (plan.problems.includes('disk') && plan.diskBytes !== undefined) {
    parts.push(
      `it needs ${formatBytes(plan.diskBytes)} free disk in ${dir} and ${formatBytes(machine.freeDiskBytes)} is free`,
    );
  }
  if (plan.problems.includes('memory') && plan.ramBytes !== undefined) {
    parts.push(
      `it needs about ${formatBytes(plan.ramBytes)} of memory and this machine has ${formatBytes(machine.totalMemBytes)} in all`,
    );
  }
  if (parts.length === 0) return undefined;
  return `${plan.source.label} does not fit here: ${parts.join('; ')}. Choose a smaller model (small, medium), free disk space, or use --home on a larger disk.`;
}
