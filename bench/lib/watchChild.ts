/**
 * Child process for the watch benchmark: the real workspace watcher on one folder, alone in
 * its process, so its memory and CPU are the process's. Prints one JSON line: the RSS before
 * the watcher, when its first scan ended and after `seconds` of idling (sampled each second),
 * the CPU time of the scan and of the idle window, and how many entries it watches.
 *
 *   node --import tsx bench/lib/watchChild.ts <root> <seconds> [maxEntries]
 */
import { watchWorkspace } from '../../src/watch/workspaceWatcher.js';

const [root, secondsArg, maxArg] = process.argv.slice(2);
const seconds = Number(secondsArg);
if (!root || !Number.isFinite(seconds)) {
  throw new Error('usage: node --import tsx watchChild.ts <root> <seconds> [maxEntries]');
}
const rss = (): number => process.memoryUsage.rss();
const cpuMs = (u: NodeJS.CpuUsage): number => (u.user + u.system) / 1000;

const rssBefore = rss();
const notices: string[] = [];
const t0 = performance.now();
const cpu0 = process.cpuUsage();
const watcher = watchWorkspace({
  root,
  ...(maxArg ? { maxEntries: Number(maxArg) } : {}),
  onChange: () => undefined,
  onNotice: (m) => notices.push(m),
  onError: (m) => notices.push(`error: ${m}`),
});
await watcher.ready;
const scanMs = performance.now() - t0;
const scanCpu = process.cpuUsage(cpu0);
const rssReady = rss();
const samples: number[] = [];
const cpu1 = process.cpuUsage();
const w0 = performance.now();
for (let i = 0; i < seconds; i++) {
  await new Promise((r) => setTimeout(r, 1000));
  samples.push(rss());
}
const idleCpu = process.cpuUsage(cpu1);
const idleWall = performance.now() - w0;
const watched = watcher.watchedCount();
await watcher.close();
process.stdout.write(
  `${JSON.stringify({
    rssBefore,
    rssReady,
    rssPeak: Math.max(rssReady, ...samples),
    rssEnd: samples.at(-1) ?? rssReady,
    scanMs,
    scanCpuMs: cpuMs(scanCpu),
    idleCpuPercent: (100 * cpuMs(idleCpu)) / idleWall,
    watched,
    notices,
  })}\n`,
);
process.exit(0);
