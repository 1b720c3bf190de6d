/**
 * Which catalogue model fits a machine: a pure function over its memory, threads and free
 * disk, so it is tested over profiles without touching the real machine.
 */
import { CATALOG, type CatalogId, type CatalogModel } from './catalog.js';

/** What the proposal looks at. Bytes throughout. */
export interface MachineProfile {
  totalMemBytes: number;
  freeMemBytes: number;
  /** CPU threads available to this process. */
  threads: number;
  /** Free space where the models folder is (or would be). */
  freeDiskBytes: number;
}

/** Left free on disk after a download, so the machine is not filled to the last byte. */
export const DISK_RESERVE_BYTES = 1_000_000_000;

/** Why a model does not fit; empty when it does. */
export type FitProblem = 'disk' | 'memory';

interface ModelFit {
  model: CatalogModel;
  problems: FitProblem[];
}

export interface Proposal {
  /** The best model that fits, or undefined when none does. */
  proposed: CatalogId | undefined;
  /** Every catalogue model with what stands in its way. */
  fits: ModelFit[];
}

/**
 * Memory is judged on total memory: free memory swings with what else runs, and the model
 * file is memory-mapped (the OS pages it in as needed). A model needs its `ramBytes` within
 * 70% of the total, leaving the rest to the system and other programs. Disk must hold the
 * file plus `DISK_RESERVE_BYTES`.
 */
export function checkFit(model: CatalogModel, m: MachineProfile): FitProblem[] {
  const problems: FitProblem[] = [];
  if (m.freeDiskBytes < model.approxBytes + DISK_RESERVE_BYTES) problems.push('disk');
  if (model.ramBytes > m.totalMemBytes * 0.7) problems.push('memory');
  return problems;
}

/**
 * The proposal: the largest model that fits, except that with fewer than 4 threads the 7B
 * model is too slow to be pleasant (under ~2 tokens/s), so the 3B one is proposed instead.
 */
export function proposeModel(m: MachineProfile): Proposal {
  const fits = CATALOG.map((model) => ({ model, problems: checkFit(model, m) }));
  const usable = fits.filter((f) => f.problems.length === 0).map((f) => f.model);
  const affordable = m.threads < 4 ? usable.filter((u) => u.id !== 'large') : usable;
  const best = (affordable.length > 0 ? affordable : usable).at(-1);
  return { proposed: best?.id, fits };
}
