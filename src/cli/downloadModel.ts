/**
 * `cogito --download-model [small|medium|large|hf:…|URL]`: downloads a model into
 * `<app home>/models/`, with a progress line on stderr, and configures Cogito to run it
 * (`provider: "local"`, `modelPath`). Nothing in config.json changes unless the file was
 * downloaded and verified.
 */
import { resolveHome } from '../config/paths.js';
import { appPaths } from '../config/paths.js';
import { updateConfigFile } from '../config/save.js';
import { resolveModelSpec } from '../models/catalog.js';
import { downloadModel } from '../models/download.js';
import { readMachineProfile } from '../models/machineProfile.js';
import { planDownload, refusal } from '../models/plan.js';
import { formatBytes, progressParts, type DownloadProgress } from '../models/progress.js';
import { proposeModel, type MachineProfile } from '../models/propose.js';
import { invokedAs } from '../core/invokedAs.js';

export interface DownloadModelDeps {
  env: NodeJS.ProcessEnv;
  stderr: NodeJS.WritableStream & { isTTY?: boolean };
  home?: string | undefined;
  /** Injectable for tests; default the real machine. */
  machine?: MachineProfile;
  fetch?: typeof fetch;
  signal?: AbortSignal;
}

/** Writes progress lines: in place on a terminal, one every ~2 s to a pipe or a log. */
function progressWriter(stderr: DownloadModelDeps['stderr']): (p: DownloadProgress) => void {
  let last = 0;
  return (p) => {
    const { done, percent, speed, eta } = progressParts(p);
    const line = `  ${done} ${percent} · ${speed} · ${eta} left`;
    if (stderr.isTTY) {
      stderr.write(`\r\x1b[2K${line}`);
      return;
    }
    const now = Date.now();
    const finished = p.total !== undefined && p.received >= p.total;
    if (now - last < 2000 && !finished) return;
    last = now;
    stderr.write(`${line}\n`);
  };
}

/** Runs the download and configures it; returns the exit code (0 done, 1 failed, 2 usage). */
export async function runDownloadModel(spec: string, io: DownloadModelDeps): Promise<number> {
  const { home } = resolveHome({ flag: io.home, env: io.env });
  const dir = appPaths(home).models;
  const machine = io.machine ?? (await readMachineProfile(dir));
  const wanted = spec.trim() || proposeModel(machine).proposed;
  if (!wanted) {
    io.stderr.write(
      `cogito: no catalogue model fits this machine (${formatBytes(machine.totalMemBytes)} memory, ${formatBytes(machine.freeDiskBytes)} free disk); use a remote model instead.\n`,
    );
    return 1;
  }
  const resolved = resolveModelSpec(wanted, io.env);
  if (!resolved.ok) {
    io.stderr.write(`cogito: --download-model: ${resolved.message}\n`);
    return 2;
  }
  const plan = planDownload(resolved.source, machine);
  const refused = refusal(plan, machine, dir);
  if (refused) {
    io.stderr.write(`cogito: ${refused}\n`);
    return 1;
  }
  const size = plan.source.model ? ` (${formatBytes(plan.source.model.approxBytes)})` : '';
  io.stderr.write(
    `Downloading ${plan.source.label}${size} from ${plan.source.url}\n  into ${dir}\n`,
  );
  const result = await downloadModel({
    url: plan.source.url,
    dir,
    file: plan.source.file,
    ...(plan.source.model ? { catalogueBytes: plan.source.model.approxBytes } : {}),
    onProgress: progressWriter(io.stderr),
    ...(io.fetch ? { fetch: io.fetch } : {}),
    ...(io.signal ? { signal: io.signal } : {}),
  });
  if (io.stderr.isTTY) io.stderr.write('\n');
  if (!result.ok) {
    io.stderr.write(`cogito: the download failed: ${result.message}\n`);
    return 1;
  }
  const checked = result.existing
    ? 'already downloaded'
    : result.checksum === 'verified'
      ? 'SHA-256 verified'
      : 'size and format checked (the source publishes no SHA-256)';
  io.stderr.write(`Saved ${result.path} (${formatBytes(result.bytes)}, ${checked}).\n`);
  const saved = await updateConfigFile(home, { provider: 'local', modelPath: result.path });
  if (!saved.ok) {
    const why = saved.errors.map((e) => `${e.field} ${e.problem}. ${e.fix}`).join(' ');
    io.stderr.write(`cogito: the model is downloaded but config.json was not changed: ${why}\n`);
    return 1;
  }
  io.stderr.write(
    `Configured ${saved.file} to run it. Try: ${invokedAs({ env: io.env })} -p "hello"\n`,
  );
  return 0;
}
