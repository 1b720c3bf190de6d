/**
 * The programs bench/peers.ts compares: Cogito from this checkout, and qwen-code installed
 * from the npm registry into a temporary folder (the only network use of the benchmarks),
 * each with a home of its own and pointed at the scripted server.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { waitFor } from '../../test/helpers/waitForFrame.js';
import type { ScriptedServer } from '../../test/helpers/scriptedServer.js';
import { COGITO, makeHome } from './appEnv.js';

export const QWEN_VERSION = '0.15.10';

export interface Launch {
  cmd: string[];
  env: NodeJS.ProcessEnv;
  cwd: string;
  cleanup(): void;
}

export interface Peer {
  name: string;
  /** Text on screen once the program waits for input. */
  ready: RegExp;
  launch(server: ScriptedServer): Launch;
}

/** Installs qwen-code into `dir` (npm registry, no install scripts); returns its CLI script. */
export function installQwen(dir: string): string {
  execFileSync(
    'npm',
    [
      'install',
      '--prefix',
      dir,
      `@qwen-code/qwen-code@${QWEN_VERSION}`,
      '--no-audit',
      '--no-fund',
      '--ignore-scripts',
    ],
    { stdio: ['ignore', 'inherit', 'inherit'], timeout: 600_000 },
  );
  return path.join(dir, 'node_modules', '@qwen-code', 'qwen-code', 'cli.js');
}

/** qwen-code with its own HOME, and settings written before its first start. */
export function qwenPeer(cli: string): Peer {
  return {
    name: `qwen-code ${QWEN_VERSION}`,
    ready: /Type your message/i,
    launch(server) {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'peers-qwen-'));
      const ws = path.join(dir, 'ws');
      fs.mkdirSync(path.join(dir, '.qwen'), { recursive: true });
      fs.mkdirSync(ws);
      // No update check, no usage statistics, no telemetry: from the very first start.
      const settings = {
        general: { enableAutoUpdate: false },
        privacy: { usageStatisticsEnabled: false },
        telemetry: { enabled: false },
      };
      fs.writeFileSync(path.join(dir, '.qwen', 'settings.json'), JSON.stringify(settings, null, 2));
      return {
        cmd: [process.execPath, cli, '--auth-type', 'openai'],
        env: {
          PATH: process.env.PATH ?? '/usr/bin:/bin',
          HOME: dir,
          LANG: 'C.UTF-8',
          OPENAI_BASE_URL: server.url,
          OPENAI_API_KEY: 'sk-bench',
          OPENAI_MODEL: 'bench-model',
        },
        cwd: ws,
        cleanup: () => fs.rmSync(dir, { recursive: true, force: true }),
      };
    },
  };
}

/** Cogito, paused (so typing while it streams an answer does not interrupt it). */
export const cogitoPeer: Peer = {
  name: 'cogito',
  ready: /Paused[\s\S]*quit/,
  launch(server) {
    const home = makeHome(server.url, {}, 'peers-cogito-');
    const env = home.env();
    // tmux sets TERM inside the pane for both programs alike.
    delete env.TERM;
    return {
      cmd: [...COGITO, '--paused'],
      env,
      cwd: home.workspace,
      cleanup: () => home.cleanup(),
    };
  },
};

/**
 * The index of the first chat request from `from` on whose messages mention `text`: qwen-code
 * makes requests of its own (follow-up checks), so request numbers alone do not say which
 * one answers the user's message.
 */
export async function requestWith(
  server: ScriptedServer,
  from: number,
  text: string,
  timeoutMs = 20_000,
): Promise<number> {
  let found = -1;
  await waitFor(
    () => {
      for (let i = from; i < server.requests.length && found === -1; i++) {
        if (JSON.stringify(server.requests[i]!.body.messages ?? '').includes(text)) found = i;
      }
      return found !== -1;
    },
    `a request carrying "${text}"`,
    { timeoutMs, intervalMs: 2 },
  );
  return found;
}

/** Resident memory of `pid` and every process below it (qwen-code may run as a child). */
export function treeRss(pid: number, rssOf: (pid: number) => number): number {
  const children = new Map<number, number[]>();
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      children.set(ppid, [...(children.get(ppid) ?? []), Number(entry)]);
    } catch {
      // Gone while we looked.
    }
  }
  let total = 0;
  const stack = [pid];
  while (stack.length) {
    const p = stack.pop()!;
    total += rssOf(p) || 0;
    stack.push(...(children.get(p) ?? []));
  }
  return total;
}
