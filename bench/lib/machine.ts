/** What the numbers were measured on, recorded next to every result. */
import { execFileSync } from 'node:child_process';
import os from 'node:os';

export interface MachineInfo {
  cpu: string;
  cores: number;
  memoryMB: number;
  node: string;
  os: string;
  /** 1-minute load average when the benchmark started (other work on the machine skews timings). */
  loadAvg1: number;
  date: string;
  commit: string;
}

function gitCommit(): string {
  try {
    const sha = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).trim();
    const dirty = execFileSync('git', ['status', '--porcelain'], { encoding: 'utf8' }).trim();
    return dirty ? `${sha} (+ uncommitted changes)` : sha;
  } catch {
    return 'unknown';
  }
}

export function machineInfo(): MachineInfo {
  const cpus = os.cpus();
  return {
    cpu: cpus[0]?.model.trim() ?? 'unknown',
    cores: cpus.length,
    memoryMB: Math.round(os.totalmem() / 1024 / 1024),
    node: process.version,
    os: `${os.type()} ${os.release()} ${os.arch()}`,
    loadAvg1: Math.round(os.loadavg()[0]! * 100) / 100,
    date: new Date().toISOString(),
    commit: gitCommit(),
  };
}
