/**
 * Everything the wizard's screens need from the outside world, behind one interface, so
 * the UI holds no I/O and tests swap in what they need (a scripted server's port, a fake
 * model-file check).
 */
import type { SaveConfigResult } from '../config/save.js';
import { detectLocalServers, type DetectOptions, type DetectedServer } from './detect.js';
import { testConnection } from './connection.js';
import { listModels, type ModelList } from './models.js';
import { testModelFile, type ModelFileChecker } from './modelFile.js';
import { saveSetup } from './save.js';
import type { ConnectionVerdict } from './verdict.js';
import type { Answers } from './wizard.js';
import { checkWorkspace, type WorkspaceCheck } from './workspace.js';

export interface SetupServices {
  /** Model servers already running on this machine. */
  detect(): Promise<DetectedServer[]>;
  listModels(baseURL: string, apiKey: string): Promise<ModelList>;
  /** The test step: the connection (or, for a GGUF file, the file) as answered. */
  verify(answers: Answers): Promise<ConnectionVerdict>;
  checkWorkspace(input: string): Promise<WorkspaceCheck>;
  /** The only write: config.json, at the end. */
  save(answers: Answers): Promise<SaveConfigResult>;
}

export interface SetupServiceOptions {
  /** The app home, where config.json goes. */
  home: string;
  /** Base for a relative workspace path. Default: the current folder. */
  cwd?: string;
  fetch?: typeof fetch;
  /** Per request for the model list and the connection test. */
  timeoutMs?: number;
  detect?: DetectOptions;
  checkModelFile?: ModelFileChecker;
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
      a.presetId === 'gguf'
        ? testModelFile(a.modelPath, opts.checkModelFile)
        : testConnection({ baseURL: a.baseURL, apiKey: a.apiKey, model: a.model, ...http }),
    checkWorkspace: (input) => checkWorkspace(input, opts.cwd ?? process.cwd()),
    save: (a) => saveSetup(opts.home, a),
  };
}
