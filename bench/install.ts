/**
 * install: how fast the globally installed `cogito` starts, against the checkout and a bare
 * `node -e 0`. The package is packed from the working tree and installed with
 * `npm install -g` into a temporary prefix (install scripts blocked, no internet: see
 * test/helpers/packInstall.ts), as a user would get it.
 * - `cogito --version`: spawn → exit;
 * - full-screen app: spawn → the first complete frame in a real (pseudo-)terminal.
 * Target (issue #16): the installed copy within 10 % of the checkout.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { installedSize, packAndInstall } from '../test/helpers/packInstall.js';
import { startScriptedServer } from '../test/helpers/scriptedServer.js';
import { COGITO } from './lib/appEnv.js';
import { monoNow } from './lib/clock.js';
import { mainFor, type Bench, type BenchResult, type Metric } from './lib/report.js';
import { ms, summarize, type Summary } from './lib/stats.js';
import { runsBuild, timeCommand, tuiSample } from './startup.js';

function row(name: string, s: Summary): Metric {
  return { name, value: `p50 ${ms(s.p50)} (p90 ${ms(s.p90)}, n=${s.n})`, raw: s.p50 };
}

/** The installed copy's median against the checkout's: met within 10 %. */
function ratio(name: string, installed: Summary, checkout: Summary): Metric {
  const r = installed.p50 / checkout.p50;
  return {
    name,
    value: `${r.toFixed(2)} × (${ms(installed.p50)} vs ${ms(checkout.p50)})`,
    raw: r,
    target: '≤ 1.10 ×',
    met: r <= 1.1,
  };
}

export const install: Bench = {
  name: 'install',
  async run({ quick }): Promise<BenchResult> {
    const samples = quick ? 3 : 10;
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cogito-bench-install-'));
    const npmHome = path.join(dir, 'npm-home');
    fs.mkdirSync(npmHome);
    const server = await startScriptedServer();
    server.setDefault({ kind: 'stream', content: 'Hello. [WAIT]' });
    try {
      const t0 = monoNow();
      const installed = await packAndInstall(dir, npmHome);
      const installMs = monoNow() - t0;
      // What the user's disk gets (issue 33.8: 760 MB with CUDA and Vulkan builds before).
      const size = await installedSize(installed.installed);
      const commands = { installed: [installed.bin], checkout: COGITO };
      const env = { PATH: process.env.PATH ?? '/usr/bin:/bin' };

      // Warm-up, not counted: cold file caches (and tsx's compile cache for the sources).
      for (const cmd of Object.values(commands)) {
        await timeCommand([...cmd, '--version'], env);
        await tuiSample(server, cmd);
      }
      const version = { installed: [] as number[], checkout: [] as number[] };
      const frame = { installed: [] as number[], checkout: [] as number[] };
      const bare: number[] = [];
      for (let i = 0; i < samples; i++) {
        bare.push((await timeCommand([process.execPath, '-e', '0'], env)).ms);
        for (const [which, cmd] of Object.entries(commands) as [
          keyof typeof commands,
          string[],
        ][]) {
          version[which].push((await timeCommand([...cmd, '--version'], env)).ms);
          frame[which].push((await tuiSample(server, cmd)).frame);
        }
      }
      const s = {
        versionInstalled: summarize(version.installed),
        versionCheckout: summarize(version.checkout),
        frameInstalled: summarize(frame.installed),
        frameCheckout: summarize(frame.checkout),
        bare: summarize(bare),
      };
      const metrics: Metric[] = [
        row('cogito --version, global install: spawn → exit', s.versionInstalled),
        row('cogito --version, checkout: spawn → exit', s.versionCheckout),
        row('node -e 0: spawn → exit (floor)', s.bare),
        ratio('--version: global install / checkout', s.versionInstalled, s.versionCheckout),
        row('TUI, global install: spawn → first full frame', s.frameInstalled),
        row('TUI, checkout: spawn → first full frame', s.frameCheckout),
        ratio('first frame: global install / checkout', s.frameInstalled, s.frameCheckout),
        { name: 'npm pack + npm install -g (once)', value: ms(installMs), raw: installMs },
        {
          name: 'installed: packages, size on disk',
          value: `${size.packages} packages, ${(size.bytes / 1e6).toFixed(1)} MB`,
          raw: size.bytes,
        },
      ];
      return {
        name: 'install',
        title: 'install (global install vs checkout)',
        metrics,
        notes: [
          `The checkout runs node bin/cogito.js, ${runsBuild() ? 'which runs its up-to-date production build dist/' : 'with no up-to-date build in dist/, so from the TypeScript sources through tsx'}; the global install runs ${installed.bin}, its packed dist/.`,
          'Medians are compared; the first start of each is a warm-up and not counted. Samples alternate between the two so that machine load hits both alike.',
        ],
        details: {
          samples: { version, frame, bare },
          installMs,
          tarballFiles: installed.tarballFiles.length,
          installedPackages: size.packages,
          installedBytes: size.bytes,
        },
      };
    } finally {
      await server.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  },
};

await mainFor(install, import.meta.url);
