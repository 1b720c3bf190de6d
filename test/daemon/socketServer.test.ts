/**
 * The background agent's socket, attacked and used as a client would: hellos both ways, bad
 * lines answered with errors (never a crash), an oversized line cut off, modes 0600 in a
 * 0700 folder, a stale socket left by a killed process replaced, a live one left alone, and
 * another user's connection refused by the OS (when the tests run as root).
 */
import { spawn } from 'node:child_process';
import { chmod, mkdtemp, rm, stat } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AgentCommand, AgentDoor, DoorEvent } from '../../src/daemon/agentPort.js';
import { connectAgent } from '../../src/daemon/socketClient.js';
import { startSocketServer, type SocketServer } from '../../src/daemon/socketServer.js';
import { MAX_LINE_BYTES, PROTOCOL_VERSION } from '../../src/daemon/protocol.js';
import { waitUntil } from '../helpers/waitFor.js';
import { createAgentStore } from '../../src/store/agentStore.js';

/** A stand-in agent: records commands, emits what the test tells it to. */
function fakePort() {
  const listeners = new Set<(e: DoorEvent) => void>();
  const commands: AgentCommand[] = [];
  const port: AgentDoor = {
    send: (c) => {
      commands.push(c);
      return { ok: true };
    },
    snapshot: () => createAgentStore().getState(),
    subscribe: (l) => {
      listeners.add(l);
      return () => listeners.delete(l);
    },
    facts: () => ({ state: 'THINKING', tokensToday: 42, sessionId: 's1' }),
  };
  return { port, commands, emit: (e: DoorEvent) => listeners.forEach((l) => l(e)) };
}

/** A raw client: every line it receives, and a way to send bytes. */
async function rawClient(socketPath: string) {
  const socket = net.connect(socketPath);
  socket.setEncoding('utf8');
  const lines: Record<string, unknown>[] = [];
  let buffer = '';
  let closed = false;
  socket.on('data', (d: string) => {
    buffer += d;
    const parts = buffer.split('\n');
    buffer = parts.pop() ?? '';
    for (const p of parts) lines.push(JSON.parse(p) as Record<string, unknown>);
  });
  socket.on('close', () => (closed = true));
  socket.on('error', () => undefined);
  await waitUntil(() => lines.length > 0, 'the hello');
  return {
    lines,
    closed: () => closed,
    write: (s: string) => socket.write(s),
    end: () => socket.destroy(),
  };
}

describe('the background agent socket', () => {
  let tmp: string;
  let socketPath: string;
  let server: SocketServer | undefined;
  let stops = 0;

  beforeEach(async () => {
    tmp = await mkdtemp(path.join(os.tmpdir(), 'cogito-sock-'));
    socketPath = path.join(tmp, 'run', 'a.sock');
    stops = 0;
  });
  afterEach(async () => {
    await server?.close();
    server = undefined;
    await rm(tmp, { recursive: true, force: true });
  });

  const start = async (port: AgentDoor) =>
    (server = await startSocketServer({
      socketPath,
      port,
      workspace: '/w',
      started: new Date(),
      onStop: () => void (stops += 1),
    }));

  it('greets with its protocol version, answers status, forwards commands and events', async () => {
    const fake = fakePort();
    await start(fake.port);
    const c = await rawClient(socketPath);
    expect(c.lines[0]).toMatchObject({
      type: 'hello',
      protocol: PROTOCOL_VERSION,
      pid: process.pid,
    });
    c.write(`${JSON.stringify({ type: 'hello', protocol: PROTOCOL_VERSION })}\n`);
    c.write(`${JSON.stringify({ type: 'request', id: 7, method: 'status' })}\n`);
    await waitUntil(() => c.lines.find((l) => l.id === 7), 'the status reply');
    expect(c.lines.find((l) => l.id === 7)).toMatchObject({
      type: 'reply',
      result: { workspace: '/w', state: 'THINKING', tokensToday: 42, sessionId: 's1' },
    });
    c.write(`${JSON.stringify({ type: 'command', command: { type: 'submit', text: 'hi' } })}\n`);
    await waitUntil(() => fake.commands.length === 1, 'the command');
    expect(fake.commands[0]).toEqual({ type: 'submit', text: 'hi' });
    // Events only once subscribed.
    fake.emit({ type: 'notice', level: 'info', text: 'before' });
    c.write(`${JSON.stringify({ type: 'request', id: 8, method: 'subscribe' })}\n`);
    await waitUntil(() => c.lines.find((l) => l.id === 8), 'the subscribe reply');
    fake.emit({ type: 'notice', level: 'info', text: 'after' });
    await waitUntil(() => c.lines.find((l) => l.type === 'event'), 'an event');
    expect(c.lines.filter((l) => l.type === 'event')).toEqual([
      { type: 'event', event: { type: 'notice', level: 'info', text: 'after' } },
    ]);
    c.end();
  });

  it('keeps the socket 0600 inside a 0700 folder', async () => {
    await start(fakePort().port);
    expect((await stat(socketPath)).mode & 0o777).toBe(0o600);
    expect((await stat(path.dirname(socketPath))).mode & 0o777).toBe(0o700);
  });

  it('answers hostile lines with errors naming the problem, and keeps serving', async () => {
    const fake = fakePort();
    await start(fake.port);
    const c = await rawClient(socketPath);
    const send = (s: string) => c.write(`${s}\n`);
    send(JSON.stringify({ type: 'request', id: 1, method: 'status' }));
    send('{not json');
    send('[1,2]');
    send(JSON.stringify({ type: 'hello', protocol: PROTOCOL_VERSION }));
    send(JSON.stringify({ type: 'launch', id: 2 }));
    send(JSON.stringify({ type: 'request', id: 3, method: 'rm -rf' }));
    send(JSON.stringify({ type: 'command', command: { type: 'format_disk' } }));
    send(JSON.stringify({ type: 'request', id: 4, method: 'status' }));
    await waitUntil(() => c.lines.find((l) => l.id === 4), 'the status after the junk');
    const errors = c.lines.filter((l) => l.type === 'error').map((l) => String(l.message));
    expect(errors).toEqual([
      expect.stringContaining('say hello first'),
      expect.stringContaining('not JSON'),
      expect.stringContaining('not a JSON object'),
      expect.stringContaining('unknown message type "launch"'),
      expect.stringContaining('"method" one of status, stop, subscribe'),
      expect.stringContaining('one of submit'),
    ]);
    expect(fake.commands).toEqual([]);
    c.end();
  });

  it('cuts off a line over the size cap with an error, and others still connect', async () => {
    await start(fakePort().port);
    const c = await rawClient(socketPath);
    c.write('x'.repeat(MAX_LINE_BYTES + 10));
    await waitUntil(() => c.closed(), 'the connection to close');
    expect(c.lines.at(-1)).toMatchObject({
      type: 'error',
      message: expect.stringContaining('line too long'),
    });
    const ok = await connectAgent(socketPath);
    expect(await ok.request('status')).toMatchObject({ workspace: '/w' });
    ok.close();
  });

  it('refuses a client of another protocol version', async () => {
    await start(fakePort().port);
    const c = await rawClient(socketPath);
    c.write(`${JSON.stringify({ type: 'hello', protocol: 999 })}\n`);
    await waitUntil(() => c.closed(), 'the connection to close');
    expect(c.lines.at(-1)).toMatchObject({
      type: 'error',
      message: expect.stringContaining('protocol 999 is not spoken here'),
    });
  });

  it('answers snapshot with plain data; a client learns whether its command was taken', async () => {
    const fake = fakePort();
    fake.port.send = (c) => {
      fake.commands.push(c);
      return c.type === 'queue' && c.text === 'refuse me'
        ? { ok: false, problem: 'queue: not now' }
        : { ok: true };
    };
    await start(fake.port);
    const c = await connectAgent(socketPath);
    const snapshot = (await c.request('snapshot')) as Record<string, unknown>;
    expect(snapshot).toMatchObject({ machine: expect.any(String), messages: [], toolLog: [] });
    await c.command({ type: 'queue', text: 'take me' });
    await expect(c.command({ type: 'queue', text: 'refuse me' })).rejects.toThrow('queue: not now');
    // A refused command does not stick to the next one.
    await c.command({ type: 'queue', text: 'take me too' });
    expect(fake.commands.map((x) => (x.type === 'queue' ? x.text : x.type))).toEqual([
      'take me',
      'refuse me',
      'take me too',
    ]);
    const events: unknown[] = [];
    c.onEvent((e) => events.push(e));
    await c.request('subscribe');
    fake.emit({ type: 'notice', level: 'info', text: 'heard' });
    await waitUntil(() => events.length > 0, 'the event');
    expect(events).toEqual([{ type: 'notice', level: 'info', text: 'heard' }]);
    let closed = false;
    c.onClose(() => (closed = true));
    await server!.close();
    server = undefined;
    await waitUntil(() => closed, 'the close to be told');
  });

  it('stop is answered, then the agent is told to quit', async () => {
    await start(fakePort().port);
    const c = await connectAgent(socketPath);
    expect(await c.request('stop')).toEqual({ stopping: true });
    expect(stops).toBe(1);
    c.close();
  });

  it('replaces a stale socket a killed process left, and refuses to start beside a live one', async () => {
    // A real process listens on the path and is killed -9: its socket file stays behind.
    const child = spawn(process.execPath, [
      '-e',
      `require('fs').mkdirSync(${JSON.stringify(path.dirname(socketPath))},{recursive:true});` +
        `require('net').createServer().listen(${JSON.stringify(socketPath)},()=>console.log('up'))`,
    ]);
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    await waitUntil(() => out.includes('up'), 'the squatter to listen', 15_000);
    await expect(start(fakePort().port)).rejects.toThrow(/Another agent answers on .*cogito stop/);
    child.kill('SIGKILL');
    await new Promise((r) => child.on('exit', r));
    expect((await stat(socketPath)).isSocket()).toBe(true);
    await start(fakePort().port);
    const c = await connectAgent(socketPath);
    expect(c.pid).toBe(process.pid);
    c.close();
  });

  const notRoot = process.getuid?.() !== 0;
  if (notRoot) console.log('skipped: another user connecting needs root to spawn as uid 65534');
  it.skipIf(notRoot)(
    'refuses another user: a process running as uid 65534 cannot connect',
    async () => {
      await start(fakePort().port);
      // Open every folder above the run folder, so only Cogito's own 0700/0600 stand in the way.
      await chmod(tmp, 0o755);
      const attacker = spawn(
        process.execPath,
        [
          '-e',
          `const s=require('net').connect(${JSON.stringify(socketPath)});` +
            `s.on('connect',()=>{console.log('CONNECTED');process.exit(0)});` +
            `s.on('error',e=>{console.log(e.code);process.exit(0)})`,
        ],
        { uid: 65534, gid: 65534 },
      );
      let out = '';
      attacker.stdout.on('data', (d: Buffer) => (out += d.toString()));
      await new Promise((r) => attacker.on('exit', r));
      expect(out.trim()).toBe('EACCES');
    },
  );
});
