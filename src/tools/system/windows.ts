import path from 'node:path';
import { ToolFailure } from '../web/errors.js';
import { parseCsv } from './csv.js';
import type { CommandRunner } from './exec.js';
import type { AppInfo, ProcessInfo, SystemPlatform } from './types.js';

interface WindowsDeps {
  runner: CommandRunner;
}

/**
 * Lists the uninstall entries of HKLM, HKLM's 32-bit view (WOW6432Node) and HKCU as JSON.
 * A constant script, sent base64-encoded so no quoting layer can change it.
 */
export const LIST_APPS_SCRIPT = [
  "$ErrorActionPreference = 'SilentlyContinue'",
  '[Console]::OutputEncoding = [System.Text.Encoding]::UTF8',
  '$paths = @(',
  "  'HKLM:\\Software\\Microsoft\\Windows\\CurrentVersion\\Uninstall\\*',",
  "  'HKLM:\\Software\\WOW6432Node\\Microsoft\\Windows\\CurrentVersion\\Uninstall\\*',",
  "  'HKCU:\\Software\\Microsoft\\Windows\\CurrentVersion\\Uninstall\\*'",
  ')',
  'Get-ItemProperty -Path $paths | Where-Object { $_.DisplayName } |',
  '  Select-Object DisplayName, DisplayIcon, InstallLocation, SystemComponent, ParentKeyName, ReleaseType, PSPath |',
  '  ConvertTo-Json -Compress -Depth 2',
].join('\n');

/**
 * Starts a program. Its path arrives in an environment variable, never inside the script
 * text: `powershell -Command` joins every following argument into code, so a path placed
 * there would be parsed as PowerShell.
 */
export const OPEN_APP_SCRIPT = [
  '$target = $env:COGITO_APP_PATH',
  'Start-Process -FilePath $target -WorkingDirectory (Split-Path -Parent $target)',
].join('\n');

/** `powershell -EncodedCommand` wants UTF-16LE base64. */
function encodePowerShell(script: string): string {
  return Buffer.from(script, 'utf16le').toString('base64');
}

/** powershell.exe argv for a constant script. */
function powershellArgs(script: string): string[] {
  return [
    '-NoProfile',
    '-NonInteractive',
    '-ExecutionPolicy',
    'Bypass',
    '-EncodedCommand',
    encodePowerShell(script),
  ];
}

/** Uninstallers and setup programs are not the app, even when they are its icon. */
const NOT_THE_APP = /^(unins\d*|uninst(all)?|uninstaller|setup|update|installer)\.exe$/i;

/** The program path in a `DisplayIcon` value such as `"C:\Foo\foo.exe",0`, if it is an .exe. */
export function exeFromDisplayIcon(icon: unknown): string | undefined {
  if (typeof icon !== 'string') return undefined;
  const value = icon
    .trim()
    .replace(/,\s*-?\d+$/, '')
    .replace(/^"(.*)"$/, '$1')
    .trim();
  if (!/\.exe$/i.test(value)) return undefined;
  return NOT_THE_APP.test(path.win32.basename(value)) ? undefined : value;
}

/**
 * Parses the JSON of {@link LIST_APPS_SCRIPT}. ConvertTo-Json prints one object, not an
 * array, when there is a single entry, and nothing when there are none. System components,
 * updates and hotfixes are left out; the first entry of a name wins.
 */
export function parseUninstallJson(json: string): AppInfo[] {
  const text = json.replace(/^\uFEFF/, '').trim();
  if (text === '') return [];
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    throw new ToolFailure(
      'io',
      `PowerShell returned unreadable app data: "${text.slice(0, 80)}…".`,
    );
  }
  const items = Array.isArray(data) ? data : [data];
  const seen = new Set<string>();
  const apps: AppInfo[] = [];
  for (const item of items) {
    if (typeof item !== 'object' || item === null) continue;
    const entry = item as Record<string, unknown>;
    const name = typeof entry.DisplayName === 'string' ? entry.DisplayName.trim() : '';
    if (name === '' || entry.SystemComponent === 1 || entry.ParentKeyName) continue;
    if (typeof entry.ReleaseType === 'string' && /update|hotfix/i.test(entry.ReleaseType)) continue;
    if (seen.has(name.toLowerCase())) continue;
    seen.add(name.toLowerCase());
    const exe = exeFromDisplayIcon(entry.DisplayIcon);
    const source = typeof entry.PSPath === 'string' ? entry.PSPath.replace(/^.*::/, '') : name;
    apps.push({
      name,
      aliases: [],
      source,
      ...(exe !== undefined ? { target: exe } : {}),
      processNames: exe !== undefined ? [path.win32.basename(exe).replace(/\.exe$/i, '')] : [],
    });
  }
  return apps;
}

/** Parses `tasklist /FO CSV /NH`: image name, PID, session name, session #, memory ("12,345 K"). */
export function parseTasklistCsv(csv: string): ProcessInfo[] {
  const processes: ProcessInfo[] = [];
  for (const row of parseCsv(csv.replace(/^\uFEFF/, ''))) {
    const [name, pid, , , memory] = row;
    if (name === undefined || pid === undefined || !/^\d+$/.test(pid.trim())) continue; // header or INFO line
    const digits = (memory ?? '').replace(/\D/g, '');
    processes.push({
      pid: Number(pid),
      name: name.trim(),
      ...(digits !== '' ? { memoryKb: Number(digits) } : {}),
    });
  }
  return processes;
}

/** Windows: registry uninstall keys, Start-Process, tasklist, taskkill. */
export function createWindowsPlatform(deps: WindowsDeps): SystemPlatform {
  const failed = (
    what: string,
    result: { stdout: string; stderr: string; exitCode: number },
  ): ToolFailure =>
    new ToolFailure(
      'io',
      `${what} failed: ${(result.stderr || result.stdout).trim() || `exit code ${result.exitCode}`}.`,
    );
  return {
    label: 'Windows',
    async listApps(signal) {
      const result = await deps.runner.run('powershell.exe', powershellArgs(LIST_APPS_SCRIPT), {
        signal,
        timeoutMs: 30_000,
      });
      if (result.exitCode !== 0) throw failed('Reading the installed programs', result);
      return parseUninstallJson(result.stdout);
    },
    async openApp(app, signal) {
      if (!app.target) {
        throw new ToolFailure(
          'unsupported',
          `Windows records no program file for ${app.name} (its uninstall entry names no .exe): open it from the Start menu.`,
        );
      }
      const result = await deps.runner.run('powershell.exe', powershellArgs(OPEN_APP_SCRIPT), {
        signal,
        timeoutMs: 30_000,
        env: { COGITO_APP_PATH: app.target },
      });
      if (result.exitCode !== 0) throw failed(`Starting ${app.name}`, result);
    },
    async listProcesses(signal) {
      const result = await deps.runner.run('tasklist', ['/FO', 'CSV', '/NH'], {
        signal,
        timeoutMs: 20_000,
      });
      if (result.exitCode !== 0) throw failed('tasklist', result);
      return parseTasklistCsv(result.stdout);
    },
    async closeProcesses(processes, signal) {
      const names = [...new Set(processes.map((entry) => entry.name))];
      const done: string[] = [];
      const errors: string[] = [];
      for (const name of names) {
        // Without /F taskkill asks the program to close (WM_CLOSE), as a user would.
        const result = await deps.runner.run('taskkill', ['/IM', name], {
          signal,
          timeoutMs: 20_000,
        });
        if (result.exitCode === 0) done.push(name);
        else
          errors.push(
            (result.stderr || result.stdout).trim() || `${name}: exit code ${result.exitCode}`,
          );
      }
      if (done.length === 0) throw new ToolFailure('io', `taskkill failed: ${errors.join(' ')}`);
      return `Asked ${done.join(', ')} to close.${errors.length > 0 ? ` Failed: ${errors.join(' ')}` : ''}`;
    },
  };
}
