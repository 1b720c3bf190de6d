/** Starts `serverWorker.ts` on a worker thread and talks to it. */
import { Worker } from 'node:worker_threads';
import type { Step } from '../../test/helpers/scriptedServer.js';

export interface WorkerServer {
  url: string;
  /** Monotonic arrival time of each chat request, by index. */
  requests: number[];
  push(...steps: Step[]): void;
  setDefault(step: Step): void;
  close(): Promise<void>;
}

export async function startWorkerServer(): Promise<WorkerServer> {
  // A worker does not inherit tsx's loader: register it there before loading the TypeScript.
  const tsxApi = import.meta.resolve('tsx/esm/api');
  const script = new URL('./serverWorker.ts', import.meta.url).href;
  const boot = `import(${JSON.stringify(tsxApi)}).then((m) => { m.register(); return import(${JSON.stringify(script)}); })`;
  const worker = new Worker(boot, { eval: true });
  const requests: number[] = [];
  const url = await new Promise<string>((resolve, reject) => {
    worker.once('error', reject);
    worker.on('message', (m: { url?: string; request?: number; at?: number }) => {
      if (m.url) resolve(m.url);
      if (m.request !== undefined) requests[m.request] = m.at!;
    });
  });
  return {
    url,
    requests,
    push: (...steps) => worker.postMessage({ push: steps }),
    setDefault: (step) => worker.postMessage({ setDefault: step }),
    close: async () => {
      worker.postMessage({ close: true });
      await new Promise((r) => worker.once('exit', r));
    },
  };
}
