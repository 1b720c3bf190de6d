/**
 * A folder with a background agent to attack, through the real program: a temp home and
 * workspace, the scripted server as the model, `cogito` as child processes, and the cleanup
 * that leaves no process behind whatever the test did.
 */
import { mkdir, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { readEntry, type RegistryEntry } from '../../src/daemon/registry.js';
import { runCogito, type CogitoRun } from './cogitoProcess.js';
import { startScriptedServer, type ScriptedServer } from './scriptedServer.js';

export interface BackgroundFolder {
  server: ScriptedServer;
  tmp: string;
  ws: string;
  home: string;
  /** Runs `cogito args --home HOME` in the workspace and waits for it. */
  cogito(args: string[]): Promise<{ code: number | null; out: string; err: string }>;
  /** The same, not waited for. */
  spawn(args: string[]): CogitoRun;
  /** `cogito start` (exit 0 expected), and the registry entry of the agent it started. */
  startAgent(): Promise<RegistryEntry>;
  /** The agent's state as `cogito status --json` reports it. */
  state(): Promise<string | undefined>;
  close(): Promise<void>;
}

/**
 * `config` is the home's config.json (default: changes the agent makes do not wake it);
 * `extraEnv` goes to every `cogito` run (a time zone, a language).
 */
export async function backgroundFolder(
  config: Record<string, unknown> = { watch: { maxWakesPerHour: 0 } },
  extraEnv: Record<string, string> = {},
): Promise<BackgroundFolder> {
  const server = await startScriptedServer();
  server.setDefault({ kind: 'stream', content: 'Nothing to do. [WAIT]' });
  const tmp = await realpath(await mkdtemp(path.join(os.tmpdir(), 'cogito-door-')));
  const ws = path.join(tmp, 'project');
  const home = path.join(tmp, 'home');
  await Promise.all([ws, home].map((d) => mkdir(d)));
  await writeFile(path.join(home, 'config.json'), JSON.stringify(config));
  const env = {
    COGITO_API_KEY: 'sk-test',
    COGITO_BASE_URL: server.url,
    COGITO_MODEL: 'scripted',
    ...extraEnv,
  };
  const groups: number[] = [];
  const spawn = (args: string[]): CogitoRun =>
    runCogito([...args, '--home', home], env, { cwd: ws });
  const cogito = async (args: string[]) => {
    const run = spawn(args);
    const code = await run.code;
    return { code, out: run.stdout(), err: run.stderr() };
  };
  return {
    server,
    tmp,
    ws,
    home,
    cogito,
    spawn,
    async startAgent() {
      const started = await cogito(['start', '--think-interval', '600000']);
      const entry = readEntry(home, ws);
      if (started.code !== 0 || !entry) throw new Error(`cogito start failed: ${started.err}`);
      groups.push(entry.pid);
      return entry;
    },
    async state() {
      const rows = JSON.parse((await cogito(['status', '--json'])).out) as { state?: string }[];
      return rows[0]?.state;
    },
    async close() {
      await cogito(['stop']).catch(() => undefined);
      for (const pid of groups) {
        try {
          process.kill(-pid, 'SIGKILL');
        } catch {
          // Gone.
        }
      }
      await server.close();
      await rm(tmp, { recursive: true, force: true });
    },
  };
}
