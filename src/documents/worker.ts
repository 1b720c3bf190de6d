/**
 * The extraction process: a child of Cogito that runs one format's extractor at a time on
 * bytes sent over IPC and sends back the document (or a member's bytes, for archives). It is
 * started and killed by pool.ts, never by hand. A document that loops, allocates without end
 * or crashes a native library takes down this process, not Cogito.
 *
 * Every reply is capped here, before it crosses to the parent: no extractor can hand the main
 * process more than `limits.maxChars` characters of Markdown.
 */
import process from 'node:process';
import { EXTRACTORS } from './formats.js';
import { capDocument } from './cap.js';
import type { WorkerChunk, WorkerJob, WorkerReply } from './protocol.js';
import { splitDocument } from './replyPieces.js';
import { DocumentError, type Extractor, type ExtractInput } from './types.js';

/** What a format's module exports; `memberBytes` only for archives. */
interface FormatModule {
  extract: Extractor;
  memberBytes?: (input: ExtractInput) => Promise<Uint8Array>;
}

async function load(job: WorkerJob): Promise<FormatModule> {
  // A module named by the parent (tests' hostile extractors); never from a tool argument.
  if (job.module !== undefined) return (await import(job.module)) as FormatModule;
  const loader = EXTRACTORS[job.kind];
  if (loader === undefined) {
    throw new DocumentError(
      'unsupported',
      `${job.input.name}: reading this kind of file (${job.kind}) is not available in this build.`,
    );
  }
  return (await loader()) as FormatModule;
}

async function run(job: WorkerJob): Promise<WorkerReply> {
  const mod = await load(job);
  const input: ExtractInput = { ...job.input, bytes: new Uint8Array(job.input.bytes) };
  if (job.op === 'member') {
    if (mod.memberBytes === undefined) {
      throw new DocumentError(
        'unsupported',
        `${job.input.name} is not an archive Cogito can open members of.`,
      );
    }
    return { id: job.id, ok: true, bytes: await mod.memberBytes(input) };
  }
  const doc = await mod.extract(input);
  return { id: job.id, ok: true, doc: capDocument(doc, job.input.limits.maxChars) };
}

function failure(id: number, name: string, error: unknown): WorkerReply {
  if (error instanceof DocumentError) {
    return { id, ok: false, error: { kind: error.kind, message: error.message } };
  }
  // A library's own exception on a bad file: said with the file's name, never a stack.
  const why = error instanceof Error ? error.message : String(error);
  return {
    id,
    ok: false,
    error: { kind: 'malformed', message: `${name} could not be read: ${why.slice(0, 500)}` },
  };
}

/** The job whose bytes are arriving, and the bytes so far. */
let pending: { job: WorkerJob; bytes: Uint8Array; filled: number } | undefined;

const send = (message: unknown): Promise<void> =>
  new Promise((resolve) => {
    if (process.send === undefined) return resolve();
    process.send(message, undefined, {}, () => resolve());
  });

/** A document goes as a head and pieces, each sent once the one before was written. */
async function reply(reply: WorkerReply): Promise<void> {
  if (!('doc' in reply)) return send(reply);
  for (const message of splitDocument(reply.id, reply.doc)) await send(message);
}

function start(job: WorkerJob): void {
  void run(job)
    .catch((error: unknown) => failure(job.id, job.input.name, error))
    .then(reply);
}

process.on('message', (message: WorkerJob | WorkerChunk) => {
  if ('chunk' in message) {
    if (pending === undefined || pending.job.id !== message.id) return;
    pending.bytes.set(message.chunk, pending.filled);
    pending.filled += message.chunk.length;
    if (pending.filled < pending.bytes.length) return;
    const { job, bytes } = pending;
    pending = undefined;
    return start({ ...job, input: { ...job.input, bytes } });
  }
  if ((message.length ?? 0) === 0) return start(message);
  pending = { job: message, bytes: new Uint8Array(message.length ?? 0), filled: 0 };
});
// Loaded and listening: the parent starts a document's clock only from here.
process.send?.({ ready: true });
// The parent went away (it exited or was killed): nothing is left to do here.
process.on('disconnect', () => process.exit(0));
