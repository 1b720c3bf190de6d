/**
 * The scripted server on its own thread, so its timers keep their pace (e.g. 200 tokens/s)
 * however busy the app's thread is with rendering, as a real remote server would.
 * Messages in: `{ push: Step[] }`, `{ setDefault: Step }`, `{ close: true }`.
 * Messages out: `{ url }` once listening; `{ request: index, at }` per chat request
 * (`at` on the shared monotonic clock).
 */
import { parentPort } from 'node:worker_threads';
import { startScriptedServer, type Step } from '../../test/helpers/scriptedServer.js';
import { fromPerf } from './clock.js';

const port = parentPort;
if (!port) throw new Error('serverWorker.ts runs as a worker thread');
const server = await startScriptedServer();
let reported = 0;
const poll = setInterval(() => {
  while (reported < server.requests.length) {
    const rec = server.requests[reported]!;
    port.postMessage({ request: reported, at: fromPerf(rec.receivedAt) });
    reported += 1;
  }
}, 5);
port.on('message', (msg: { push?: Step[]; setDefault?: Step; close?: boolean }) => {
  if (msg.push) server.push(...msg.push);
  if (msg.setDefault) server.setDefault(msg.setDefault);
  if (msg.close) {
    clearInterval(poll);
    void server.close().then(() => port.close());
  }
});
port.postMessage({ url: server.url });
