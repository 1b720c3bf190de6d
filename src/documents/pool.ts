/**
 * Runs extractors in a child process, one document at a time, with a time limit, a memory
 * limit and an output cap per document. The turn's signal (Esc) kills the child at once; so
 * does the time limit. A child that crashes or runs out of memory becomes a
 * {@link DocumentError} naming the file; Cogito carries on, and the next document gets a
 * fresh child. A child process rather than a worker thread: a native library (OCR, image
 * decoding) stuck in C++ or crashing is stopped or contained only by a process boundary.
 *
 * The child is kept warm between documents (a grep over a folder pays its start once) and
 * does not keep Cogito alive when idle. It runs at a lower priority, so the screen's keys
 * and redraws win the two cores a laptop may have.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import type { Socket } from 'node:net';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { capDocument } from './cap.js';
import type { WorkerJob, WorkerMessage, WorkerReply } from './protocol.js';
import { DocumentAssembler } from './replyPieces.js';
import {
  DEFAULT_LIMITS,
  DocumentError,
  type DocumentKind,
  type ExtractedDocument,
  type ExtractLimits,
  type ExtractOptions,
} from './types.js';

/** Limits of the extraction process, per document. */
export interface PoolLimits {
  /** Wall-clock time for one document. */
  readonly timeoutMs: number;
  /** The child's JavaScript heap (V8's old generation), in MB. */
  readonly maxHeapMb: number;
}

export const DEFAULT_POOL_LIMITS: PoolLimits = { timeoutMs: 120_000, maxHeapMb: 1024 };

/** One extraction asked of the pool. */
export interface ExtractionRequest {
  readonly kind: DocumentKind;
  readonly bytes: Uint8Array;
  /** The workspace-relative name, for messages. */
  readonly name: string;
  readonly options?: ExtractOptions;
  readonly limits?: Partial<ExtractLimits>;
  readonly signal?: AbortSignal;
  /** Tests: load the extractor from this module instead of the table. */
  readonly module?: string;
}

/** How long the extraction process may take to start (tsx compiles the sources on a cold start). */
const START_TIMEOUT_MS = 60_000;

interface Running {
  readonly id: number;
  readonly name: string;
  resolve(reply: WorkerReply): void;
  reject(error: Error): void;
  /** The document being received in pieces. */
  assembler?: DocumentAssembler;
}

/** Where the worker's code is: the bundle's `documents-worker.mjs`, or the TypeScript source. */
function workerEntry(): { file: string; execArgv: string[] } {
  const here = fileURLToPath(import.meta.url);
  if (here.endsWith('.ts')) {
    // Running from the sources (tests, a checkout without a build): through tsx's loader.
    const require = createRequire(import.meta.url);
    const tsxRoot = path.dirname(require.resolve('tsx/package.json'));
    const loader = pathToFileURL(path.join(tsxRoot, 'dist', 'loader.mjs')).href;
    return { file: path.join(path.dirname(here), 'worker.ts'), execArgv: ['--import', loader] };
  }
  // The bundle: dist/cogito.mjs or a chunk in dist/chunks/.
  const dir = path.dirname(here);
  const built = [dir, path.dirname(dir)].map((d) => path.join(d, 'documents-worker.mjs'));
  const file = built.find((f) => existsSync(f)) ?? built[0]!;
  return { file, execArgv: [] };
}

/** What the child wrote to stderr last (a V8 fatal error, a native crash), for the message. */
const STDERR_TAIL = 4096;

class ExtractionPool {
  private child: ChildProcess | undefined;
  /** Settles when the current child has said it is ready. */
  private ready: Promise<void> | undefined;
  private running: Running | undefined;
  private stderr = '';
  private nextId = 1;
  /** Jobs wait here: one document at a time. */
  private queue: Promise<unknown> = Promise.resolve();
  /** How many documents were extracted, for tests and the bench (a cache hit adds none). */
  extractions = 0;

  constructor(private readonly limits: PoolLimits) {}

  run(job: Omit<WorkerJob, 'id'>, signal?: AbortSignal): Promise<WorkerReply> {
    const turn = this.queue.then(() => this.runNow(job, signal));
    this.queue = turn.catch(() => undefined);
    return turn;
  }

  private spawn(): ChildProcess {
    const { file, execArgv } = workerEntry();
    const child = fork(file, [], {
      execArgv: [...execArgv, `--max-old-space-size=${this.limits.maxHeapMb}`],
      serialization: 'advanced',
      stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
      env: { ...process.env, NODE_OPTIONS: '' },
    });
    this.stderr = '';
    child.stderr?.on('data', (d: Buffer) => {
      this.stderr = (this.stderr + d.toString()).slice(-STDERR_TAIL);
    });
    let started: () => void = () => undefined;
    this.ready = new Promise((resolve) => (started = resolve));
    child.on('message', (message: WorkerMessage) => {
      if ('ready' in message) started();
      else if (this.running?.id === message.id) this.receive(this.running, message);
    });
    child.on('exit', (code, sig) => {
      if (this.child === child) this.child = undefined;
      this.running?.reject(this.crashError(this.running.name, code, sig));
    });
    child.on('error', (error) => this.running?.reject(error));
    if (child.pid !== undefined) {
      try {
        os.setPriority(child.pid, 10);
      } catch {
        // Not permitted here (some containers): the child runs at normal priority.
      }
    }
    return child;
  }

  /** A reply, or a document's head or piece: the document resolves once whole. */
  private receive(running: Running, message: Exclude<WorkerMessage, { ready: true }>): void {
    try {
      if ('head' in message || 'unit' in message) {
        if ('head' in message) running.assembler = new DocumentAssembler(message);
        const doc = 'unit' in message ? running.assembler?.add(message) : running.assembler?.done();
        if (doc !== undefined) running.resolve({ id: message.id, ok: true, doc });
        return;
      }
      running.resolve(message);
    } catch (error) {
      running.reject(
        new DocumentError(
          'malformed',
          `The document reader sent back a broken reply for ${running.name}: ${error instanceof Error ? error.message : String(error)}.`,
        ),
      );
    }
  }

  private crashError(name: string, code: number | null, sig: NodeJS.Signals | null): Error {
    if (/heap out of memory|Allocation failed/i.test(this.stderr)) {
      return new DocumentError(
        'too_large',
        `${name} needs more memory than reading one document may use (${this.limits.maxHeapMb} MB); it was stopped. Nothing else was affected.`,
      );
    }
    const how = sig !== null ? `signal ${sig}` : `exit code ${code}`;
    return new DocumentError(
      'malformed',
      `Reading ${name} crashed the document reader (${how}); the file is probably damaged or hostile. Nothing else was affected.`,
    );
  }

  private kill(): void {
    const child = this.child;
    this.child = undefined;
    child?.removeAllListeners('exit');
    child?.kill('SIGKILL');
    this.ready = undefined;
  }

  private async runNow(job: Omit<WorkerJob, 'id'>, signal?: AbortSignal): Promise<WorkerReply> {
    if (signal?.aborted) throw abortError(job.input.name);
    const child = (this.child ??= this.spawn());
    child.ref();
    child.channel?.ref();
    await this.started(job.input.name, signal);
    return new Promise<WorkerReply>((resolve, reject) => {
      const id = this.nextId++;
      const done = (): void => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        this.running = undefined;
        // Idle, the child must not keep Cogito from exiting.
        child.unref();
        child.channel?.unref();
        (child.stderr as Socket | null)?.unref();
      };
      this.running = {
        id,
        name: job.input.name,
        resolve: (reply) => {
          done();
          resolve(reply);
        },
        reject: (error) => {
          done();
          reject(error);
        },
      };
      const onAbort = (): void => {
        this.kill();
        this.running?.reject(abortError(job.input.name));
      };
      const timer = setTimeout(() => {
        this.kill();
        this.running?.reject(
          new DocumentError(
            'timeout',
            `Reading ${job.input.name} took longer than ${Math.round(this.limits.timeoutMs / 1000)} s, the limit per document; it was stopped.`,
          ),
        );
      }, this.limits.timeoutMs);
      signal?.addEventListener('abort', onAbort, { once: true });
      (child.stderr as Socket | null)?.ref();
      sendInChunks(child, { ...job, id }).catch((error: unknown) =>
        this.running?.reject(error instanceof Error ? error : new Error(String(error))),
      );
    });
  }

  /**
   * Waits for the child to be ready: its start-up (tsx compiling the sources, a cold disk)
   * does not count against a document's time limit, but Esc or a crash still ends the wait.
   */
  private started(name: string, signal?: AbortSignal): Promise<void> {
    const ready = this.ready ?? Promise.resolve();
    return new Promise<void>((resolve, reject) => {
      const fail = (error: Error): void => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        this.kill();
        this.running = undefined;
        reject(error);
      };
      const onAbort = (): void => fail(abortError(name));
      const timer = setTimeout(
        () =>
          fail(
            new DocumentError(
              'timeout',
              `The document reader did not start in time to read ${name}.`,
            ),
          ),
        START_TIMEOUT_MS,
      );
      this.running = { id: 0, name, resolve: () => undefined, reject: fail };
      signal?.addEventListener('abort', onAbort, { once: true });
      void ready.then(() => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        this.running = undefined;
        resolve();
      });
    });
  }

  /** Kills the child (tests; Cogito's exit kills it by closing the channel). */
  stop(): void {
    this.kill();
  }
}

/**
 * Bytes per IPC message: a 256 KB slice serialises in well under a millisecond; a 100 MB
 * file at once would freeze the screen.
 */
const CHUNK_BYTES = 256 * 1024;

/**
 * Sends the job without its bytes, then the bytes a slice per message, waiting for each send
 * to be written (and so giving the event loop a turn) before the next.
 */
async function sendInChunks(child: ChildProcess, job: WorkerJob): Promise<void> {
  const { bytes } = job.input;
  const send = (message: unknown): Promise<void> =>
    new Promise((resolve, reject) =>
      child.send(message as Parameters<ChildProcess['send']>[0], (error) =>
        error ? reject(error) : resolve(),
      ),
    );
  await send({ ...job, input: { ...job.input, bytes: new Uint8Array(0) }, length: bytes.length });
  for (let at = 0; at < bytes.length; at += CHUNK_BYTES) {
    if (child.exitCode !== null || child.signalCode !== null) return;
    await send({ id: job.id, chunk: bytes.slice(at, at + CHUNK_BYTES) });
  }
}

function abortError(name: string): DocumentError {
  return new DocumentError('aborted', `Stopped reading ${name}: the turn was interrupted.`);
}

/** One per distinct set of limits (normally one): never grows with the session. */
const pools = new Map<string, ExtractionPool>();

/** The pool for these limits (one child per distinct set; normally just the default). */
export function extractionPool(limits: PoolLimits = DEFAULT_POOL_LIMITS): ExtractionPool {
  const key = `${limits.timeoutMs}/${limits.maxHeapMb}`;
  let pool = pools.get(key);
  if (pool === undefined) {
    pool = new ExtractionPool(limits);
    pools.set(key, pool);
  }
  return pool;
}

export type { ExtractionPool };

function jobInput(req: ExtractionRequest): WorkerJob['input'] {
  return {
    bytes: req.bytes,
    name: req.name,
    options: req.options ?? {},
    limits: { ...DEFAULT_LIMITS, ...req.limits },
  };
}

/** Extracts a document in the extraction process; throws a {@link DocumentError} on failure. */
export async function extractDocument(
  req: ExtractionRequest,
  pool: ExtractionPool = extractionPool(),
): Promise<ExtractedDocument> {
  const input = jobInput(req);
  const reply = await pool.run(
    { op: 'extract', kind: req.kind, input, ...(req.module ? { module: req.module } : {}) },
    req.signal,
  );
  if (!reply.ok) throw new DocumentError(reply.error.kind, reply.error.message);
  if (!('doc' in reply))
    throw new DocumentError('malformed', `${req.name}: no document came back.`);
  pool.extractions++;
  return capDocument(reply.doc, input.limits.maxChars);
}

/** Reads one member of an archive (`req.options.member`) in the extraction process. */
export async function archiveMember(
  req: ExtractionRequest,
  pool: ExtractionPool = extractionPool(),
): Promise<Uint8Array> {
  const input = jobInput(req);
  const reply = await pool.run(
    { op: 'member', kind: req.kind, input, ...(req.module ? { module: req.module } : {}) },
    req.signal,
  );
  if (!reply.ok) throw new DocumentError(reply.error.kind, reply.error.message);
  if (!('bytes' in reply))
    throw new DocumentError('malformed', `${req.name}: no member came back.`);
  return reply.bytes;
}
