/**
 * `cogito service install|uninstall`: a systemd user unit (Linux) or a LaunchAgent (macOS)
 * that runs the folder's agent at login with `start --foreground`, so the service manager
 * supervises it (restarts it after a crash; the session resumes). Windows has neither: the
 * README gives the alternative. Every value is written escaped for its format, so a folder's
 * name is only ever a name: a systemd unit quotes each argument and doubles `%` and `$`; a
 * plist escapes XML. A control character (a newline would start a line, and a section, of the
 * folder's own) has no safe form in either and is refused. The folder is named only inside
 * ExecStart's quotes (systemd trims a `WorkingDirectory=` value: a trailing space would move
 * the agent to another folder); the agent changes to it itself.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { agentKey, agentLogFile } from './places.js';
import { resolveFolder, type DaemonDeps } from './startCommand.js';
import { invokedAs } from '../core/invokedAs.js';

export interface ServiceDeps extends DaemonDeps {
  /** Tests pick the platform; the real one otherwise. */
  platform?: NodeJS.Platform;
  /** The program to run: node, its options, the bin (default: this process's). */
  program?: string[];
}

/** What gets written for one folder: where, what, and how to turn it on and off. */
interface ServiceFile {
  file: string;
  content: string;
  enable: string;
  disable: string;
}

export async function runService(
  opts: {
    action: 'install' | 'uninstall';
    workspace?: string | undefined;
    home?: string | undefined;
  },
  io: ServiceDeps,
): Promise<number> {
  const platform = io.platform ?? process.platform;
  if (platform !== 'linux' && platform !== 'darwin') {
    io.stderr.write(
      'cogito: service install supports Linux (systemd) and macOS (launchd). On Windows, run ' +
        `\`${invokedAs({ env: io.env })} start\` from a Task Scheduler task "At log on" instead (see the README).\n`,
    );
    return 2;
  }
  const folder = resolveFolder(opts, io);
  if (!folder.ok) {
    io.stderr.write(`${folder.message}\n`);
    return 2;
  }
  const program = io.program ?? currentProgram();
  const refused = [...program, folder.workspace, folder.home].map(controlIn).find(Boolean);
  if (refused) {
    io.stderr.write(`cogito service: ${refused}\n`);
    return 2;
  }
  const args = [
    ...program,
    'start',
    '--foreground',
    '--workspace',
    folder.workspace,
    '--home',
    folder.home,
  ];
  const made =
    platform === 'linux'
      ? systemdUnit(folder.workspace, args, io.env)
      : launchAgent(folder.workspace, args, agentLogFile(folder.home, folder.workspace), io.env);
  if (opts.action === 'uninstall') return uninstall(made, io);
  fs.mkdirSync(path.dirname(made.file), { recursive: true });
  fs.writeFileSync(made.file, made.content, { mode: 0o644 });
  io.stdout.write(
    `Wrote ${made.file}\nTurn it on (starts now and at every login):\n  ${made.enable}\n` +
      'It reads the API key from config.json in the home; variables set in this shell do not ' +
      'reach it.\n',
  );
  return 0;
}

function uninstall(made: ServiceFile, io: ServiceDeps): number {
  if (!fs.existsSync(made.file)) {
    io.stdout.write(`No service is installed for this folder (${made.file} does not exist).\n`);
    return 0;
  }
  io.stdout.write(`Turning it off first: ${made.disable}\n`);
  fs.rmSync(made.file);
  io.stdout.write(`Removed ${made.file}\n`);
  return 0;
}

/** node, the options it runs with (tsx's loader in a checkout), and the real path of the bin. */
function currentProgram(): string[] {
  const bin = process.argv[1] ?? '';
  let real = bin;
  try {
    real = fs.realpathSync(bin);
  } catch {
    // Keep it as given.
  }
  return [process.execPath, ...process.execArgv, real];
}

/** `cogito-<folder name>-<hash>`: readable, and unique per folder. */
export function serviceName(workspace: string): string {
  const base =
    path
      .basename(workspace)
      .replace(/[^A-Za-z0-9_-]/g, '_')
      .slice(0, 32) || 'root';
  return `cogito-${base}-${agentKey(workspace).slice(0, 8)}`;
}

/**
 * Why `value` cannot go into a service file, if it cannot: a control character (a newline, a
 * tab, ESC…) that neither systemd's unit syntax nor XML 1.0 can carry as it is.
 */
function controlIn(value: string): string | undefined {
  // eslint-disable-next-line no-control-regex
  const found = /[\u0000-\u001f\u007f]/.exec(value);
  if (!found) return undefined;
  const code = `U+${found[0].charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}`;
  const name = found[0] === '\n' ? 'a newline' : `the control character ${code}`;
  return (
    `the path ${JSON.stringify(value)} holds ${name}, which a service file cannot hold ` +
    `safely (it could add lines of its own). Rename the folder, or run ${invokedAs()} start in it instead.`
  );
}

/** One systemd argument: quoted, with `%` and `$` escaped so systemd expands nothing. */
function systemdQuote(arg: string): string {
  const escaped = arg
    .replace(/\\/g, '\\\\')
    .replace(/"/g, '\\"')
    .replace(/%/g, '%%')
    .replace(/\$/g, '$$$$');
  return `"${escaped}"`;
}

function systemdUnit(workspace: string, args: string[], env: NodeJS.ProcessEnv): ServiceFile {
  const name = serviceName(workspace);
  const config = env.XDG_CONFIG_HOME || path.join(env.HOME || os.homedir(), '.config');
  const file = path.join(config, 'systemd', 'user', `${name}.service`);
  const content = [
    '[Unit]',
    // Quoted, so the value never ends in a backslash (which would continue the line).
    `Description=Cogito background agent for "${workspace.replace(/%/g, '%%')}"`,
    'After=network-online.target',
    '',
    '[Service]',
    'Type=simple',
    `ExecStart=${args.map(systemdQuote).join(' ')}`,
    // A crash restarts it; the session resumes from its crash record.
    'Restart=on-failure',
    'RestartSec=5',
    // Stopping the unit stops every process of it, MCP servers included.
    'KillMode=control-group',
    '',
    '[Install]',
    'WantedBy=default.target',
    '',
  ].join('\n');
  return {
    file,
    content,
    enable: `systemctl --user daemon-reload && systemctl --user enable --now ${name}.service`,
    disable: `systemctl --user disable --now ${name}.service`,
  };
}

const xml = (s: string): string =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

function launchAgent(
  workspace: string,
  args: string[],
  log: string,
  env: NodeJS.ProcessEnv,
): ServiceFile {
  const label = `dev.cogito.${serviceName(workspace)}`;
  const file = path.join(env.HOME || os.homedir(), 'Library', 'LaunchAgents', `${label}.plist`);
  const content = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">',
    '<plist version="1.0">',
    '<dict>',
    `  <key>Label</key><string>${xml(label)}</string>`,
    '  <key>ProgramArguments</key>',
    '  <array>',
    ...args.map((a) => `    <string>${xml(a)}</string>`),
    '  </array>',
    `  <key>WorkingDirectory</key><string>${xml(workspace)}</string>`,
    '  <key>RunAtLoad</key><true/>',
    // Restarted after a crash, not after a clean stop.
    '  <key>KeepAlive</key><dict><key>SuccessfulExit</key><false/></dict>',
    `  <key>StandardOutPath</key><string>${xml(log)}</string>`,
    `  <key>StandardErrorPath</key><string>${xml(log)}</string>`,
    '</dict>',
    '</plist>',
    '',
  ].join('\n');
  return {
    file,
    content,
    enable: `launchctl load -w ${JSON.stringify(file)}`,
    disable: `launchctl unload -w ${JSON.stringify(file)}`,
  };
}
