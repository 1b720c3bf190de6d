/**
 * Everything the wizard's screens need from the outside world, behind one interface, so
 * the UI holds no I/O and tests swap in what they need (a scripted server's port, a fake
 * model-file check).
 */
import { appPaths } from '../config/paths.js';
import type { SaveConfigResult } from '../config/save.js';
import { resolveModelSpec, type CatalogId } from '../models/catalog.js';
import { downloadModel, type DownloadResult } from '../models/download.js';
import { readMachineProfile } from '../models/machineProfile.js';
import type { DownloadProgress } from '../models/progress.js';
import { proposeModel, type MachineProfile, type Proposal } from '../models/propose.js';
import { detectLocalServers, type DetectOptions, type DetectedServer } from './detect.js';
import { testConnection } from './connection.js';
import { listModels, type ModelList } from './models.js';
import { testModelFile, type ModelFileChecker } from './modelFile.js';
import { saveSetup } from './save.js';
import type { ConnectionVerdict } from './verdict.js';
import type { Answers } from './wizard.js';

export interface SetupServices {
  /** Model servers already running on this machine. */
  detect(): Promise<DetectedServer[]>;
  listModels(baseURL: string, apiKey: string): Promise<ModelList>;
  /** The test step: the connection (or, for a GGUF file, the file) as answered. */
  verify(answers: Answers): Promise<ConnectionVerdict>;
  /** The only write: config.json, at the end. */
  save(answers: Answers): Promise<SaveConfigResult>;
  /** For the Private choice: this machine, where models go, and which one fits. */
  localModels(): Promise<LocalModelsPlan>;
  /**
   * Downloads a catalogue model into the models folder (a file, not a setting: config.json
   * is still written only at the end). Aborting keeps the part for a later resume.
   */
  downloadModel(
    id: CatalogId,
    onProgress: (p: DownloadProgress) => void,
    signal: AbortSignal,
  ): Promise<DownloadResult>;
}

/** What the download step shows before anything is fetched. */
export interface LocalModelsPlan {
  machine: MachineProfile;
  /** `<app home>/models`. */
  dir: string;
  proposal: Proposal;
}

export interface SetupServiceOptions {
  /** The app home, where config.json goes. */
  home: string;
  fetch?: typeof fetch;
  /** Per request for the model list and the connection test. */
  timeoutMs?: number;
  detect?: DetectOptions;
  checkModelFile?: ModelFileChecker;
  /** For COGITO_MODELS_URL (a mirror of the model files). Default: process.env. */
  env?: NodeJS.ProcessEnv;
  /** The machine the proposal is for; default the real one. */
  machine?: MachineProfile;
}

/** The real services. */
export function createSetupServices(opts: SetupServiceOptions): SetupServices {
  const http = {
    ...(opts.fetch ? { fetch: opts.fetch } : {}),
    ...(opts.timeoutMs !== undefined ? { timeoutMs: opts.timeoutMs } : {}),
  };
  return {
    detect: () =>
      detectLocalServers({ ...(opts.fetch ? { fetch: opts.fetch } : {}), ...opts.detect }),
    listModels: (baseURL, apiKey) => listModels(baseURL, apiKey, http),
    verify: (a) =>
      a.presetId === 'gguf' || a.presetId === 'private'
        ? testModelFile(a.modelPath, opts.checkModelFile)
        : testConnection({ baseURL: a.baseURL, apiKey: a.apiKey, model: a.model, ...http }),
    save: (a) => saveSetup(opts.home, a),
    localModels: async () => {
      const dir = appPaths(opts.home).models;
      const machine = opts.machine ?? (await readMachineProfile(dir));
      return { machine, dir, proposal: proposeModel(machine) };
    },
    downloadModel: async (id, onProgress, signal) => {
      const resolved = resolveModelSpec(id, opts.env ?? process.env);
      if (!resolved.ok) return { ok: false, kind: 'http', message: resolved.message };
      const { url, file, model } = resolved.source;
      return downloadModel({
        url,
        file,
        ...(model ? { catalogueBytes: model.approxBytes } : {}),
        dir: appPaths(opts.home).models,
        onProgress,
        signal,
        ...(opts.fetch ? { fetch: opts.fetch } : {}),
      });
    },
  };
}
