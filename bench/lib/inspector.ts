/**
 * The heap a running Node program retains, read from outside through its inspector, so the
 * measured program runs its production code paths (no --expose-gc, no hook of its own).
 *
 * The program is started with `NODE_OPTIONS=--inspect-port=127.0.0.1:<port>` (nothing listens
 * yet); `activate` sends it SIGUSR1, Node's signal to open the inspector on that port. Each
 * reading connects over a WebSocket (a minimal client: text frames, masked as a client must),
 * asks V8 for a full collection (`HeapProfiler.collectGarbage`: every available garbage,
 * compacting) and reads `process.memoryUsage()` in the program, then disconnects.
 */
import crypto from 'node:crypto';
import http from 'node:http';
import net from 'node:net';
import type { Duplex } from 'node:stream';

/** A free port on 127.0.0.1 (bound and released: nothing else is expected to take it). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
  });
}

function getJson(port: number, path: string): Promise<unknown> {
  return new Promise((resolve, reject) => {
    http
      .get({ host: '127.0.0.1', port, path }, (res) => {
        let body = '';
        res.on('data', (d: Buffer) => (body += d.toString()));
        res.on('end', () => {
          try {
            resolve(JSON.parse(body));
          } catch (err) {
            reject(err as Error);
          }
        });
      })
      .on('error', reject);
  });
}

/** Opens the inspector of `pid` (SIGUSR1) and waits until it answers on `port`. */
export async function activate(pid: number, port: number, timeoutMs = 20_000): Promise<void> {
  process.kill(pid, 'SIGUSR1');
  const deadline = performance.now() + timeoutMs;
  for (;;) {
    try {
      await getJson(port, '/json/list');
      return;
    } catch (err) {
      if (performance.now() > deadline) throw new Error(`inspector of ${pid}: ${String(err)}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }
}

/** One client frame: FIN + text, masked. */
function frame(text: string): Buffer {
  const payload = Buffer.from(text, 'utf8');
  const n = payload.length;
  const head =
    n < 126
      ? Buffer.from([0x81, 0x80 | n])
      : n < 65536
        ? Buffer.from([0x81, 0x80 | 126, n >> 8, n & 0xff])
        : Buffer.concat([Buffer.from([0x81, 0x80 | 127]), u64(n)]);
  const mask = crypto.randomBytes(4);
  for (let i = 0; i < n; i++) payload[i]! ^= mask[i % 4]!;
  return Buffer.concat([head, mask, payload]);
}

function u64(n: number): Buffer {
  const b = Buffer.alloc(8);
  b.writeBigUInt64BE(BigInt(n));
  return b;
}

/** A connection to one inspector target, answering `call`s by id. */
class Session {
  private rest = Buffer.alloc(0);
  private text = '';
  private nextId = 1;
  private readonly pending = new Map<number, (msg: Record<string, unknown>) => void>();

  constructor(private readonly socket: Duplex) {
    socket.on('data', (d: Buffer) => this.onData(d));
  }

  call(method: string, params: Record<string, unknown> = {}): Promise<Record<string, unknown>> {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, (msg) =>
        msg.error ? reject(new Error(`${method}: ${JSON.stringify(msg.error)}`)) : resolve(msg),
      );
      this.socket.write(frame(JSON.stringify({ id, method, params })));
    });
  }

  close(): void {
    this.socket.end(Buffer.from([0x88, 0x80, 0, 0, 0, 0]));
    this.socket.destroy();
  }

  private onData(d: Buffer): void {
    let buf = Buffer.concat([this.rest, d]);
    for (;;) {
      if (buf.length < 2) break;
      const fin = (buf[0]! & 0x80) !== 0;
      let len = buf[1]! & 0x7f;
      let at = 2;
      if (len === 126) {
        if (buf.length < 4) break;
        len = buf.readUInt16BE(2);
        at = 4;
      } else if (len === 127) {
        if (buf.length < 10) break;
        len = Number(buf.readBigUInt64BE(2));
        at = 10;
      }
      if (buf.length < at + len) break;
      const opcode = buf[0]! & 0x0f;
      if (opcode === 0x1 || opcode === 0x0) this.text += buf.subarray(at, at + len).toString();
      buf = buf.subarray(at + len);
      if (fin && (opcode === 0x1 || opcode === 0x0)) {
        const msg = JSON.parse(this.text) as Record<string, unknown>;
        this.text = '';
        if (typeof msg.id === 'number') {
          this.pending.get(msg.id)?.(msg);
          this.pending.delete(msg.id);
        }
      }
    }
    this.rest = Buffer.from(buf);
  }
}

async function connect(port: number): Promise<Session> {
  const targets = (await getJson(port, '/json/list')) as { webSocketDebuggerUrl: string }[];
  const url = new URL(targets[0]!.webSocketDebuggerUrl);
  return new Promise((resolve, reject) => {
    const req = http.request({
      host: '127.0.0.1',
      port,
      path: url.pathname,
      headers: {
        Connection: 'Upgrade',
        Upgrade: 'websocket',
        'Sec-WebSocket-Key': crypto.randomBytes(16).toString('base64'),
        'Sec-WebSocket-Version': '13',
      },
    });
    req.on('upgrade', (_res, socket: Duplex) => resolve(new Session(socket)));
    req.on('response', (res) => reject(new Error(`no upgrade: HTTP ${res.statusCode}`)));
    req.on('error', reject);
    req.end();
  });
}

export interface HeapAfterGc {
  /** V8 heap in use after the full collection: what the program retains. */
  heapUsedMB: number;
  heapTotalMB: number;
  externalMB: number;
  /** RSS right after the collection (the readings before it are the ones compared). */
  rssMB: number;
  /** How long the collection took, as seen from here. */
  gcMs: number;
}

const mb = (n: number): number => Math.round((n / 1024 / 1024) * 10) / 10;

/** A full collection in the program on `port`, then its memory as it sees it. */
export async function heapAfterFullGc(port: number): Promise<HeapAfterGc> {
  const session = await connect(port);
  try {
    const started = performance.now();
    await session.call('HeapProfiler.collectGarbage');
    const gcMs = Math.round(performance.now() - started);
    const res = await session.call('Runtime.evaluate', {
      expression: 'JSON.stringify(process.memoryUsage())',
      returnByValue: true,
    });
    const value = (res.result as { result: { value: string } }).result.value;
    const m = JSON.parse(value) as NodeJS.MemoryUsage;
    return {
      heapUsedMB: mb(m.heapUsed),
      heapTotalMB: mb(m.heapTotal),
      externalMB: mb(m.external),
      rssMB: mb(m.rss),
      gcMs,
    };
  } finally {
    session.close();
  }
}
