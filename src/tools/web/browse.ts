import { ok } from '../types.js';
import type { Tool } from '../types.js';
import type { CommandRunner } from '../system/exec.js';
import { guard, stringArg, ToolFailure } from './errors.js';
import { parseWebUrl } from './url.js';
import type { EgressGuard } from './egress.js';

/** The program and argv that hand a URL to the system browser. */
export interface BrowserCommand {
  file: string;
  args: string[];
}

/**
 * The opener for each platform. The URL is always one argv entry and no shell is involved.
 * On Windows `cmd /c start` would re-parse `&` and `^` in the URL, so `rundll32
 * url.dll,FileProtocolHandler` hands it to the default browser instead.
 */
function browserCommand(platform: NodeJS.Platform, url: string): BrowserCommand {
  if (platform === 'darwin') return { file: 'open', args: [url] };
  if (platform === 'win32') return { file: 'rundll32', args: ['url.dll,FileProtocolHandler', url] };
  return { file: 'xdg-open', args: [url] };
}

interface BrowseDeps {
  /** Refuses private and local destinations before the browser is asked to open them. */
  guard?: EgressGuard;
  runner: CommandRunner;
  platform: NodeJS.Platform;
  /** Replaces the opener (tests use a harmless recorder instead of xdg-open). */
  command?: (url: string) => BrowserCommand;
}

/** How long the opener gets to fail fast (xdg-open exits 3 when it finds no browser). */
const OPENER_GRACE_MS = 1_500;

/** `browse(url)`: opens an http(s) page in the user's browser. */
export function createBrowseTool(deps: BrowseDeps): Tool {
  return {
    name: 'browse',
    kind: 'process',
    carriesDataOut: true,
    description:
      "Opens an http(s) page in the user's web browser (for the user to see; returns no content).",
    params: [{ name: 'url', type: 'string', description: 'an http or https address' }],
    run: (args, ctx) =>
      guard(async () => {
        // The parsed, re-serialised href is what is passed on: never the raw model text.
        const parsed = parseWebUrl(stringArg(args, 0, 'url'));
        // The browser cannot be pinned to an address, but a local target is refused up front.
        // A name we cannot resolve is left to the browser (it may go through a proxy).
        await deps.guard?.check(parsed).catch((error: unknown) => {
          if (!(error instanceof ToolFailure && error.kind === 'network')) throw error;
        });
        const url = parsed.href;
        const command = deps.command?.(url) ?? browserCommand(deps.platform, url);
        try {
          await deps.runner.launch(command.file, command.args, {
            signal: ctx.signal,
            graceMs: OPENER_GRACE_MS,
          });
        } catch (error) {
          if (error instanceof ToolFailure && error.kind === 'io') {
            throw new ToolFailure(
              'io',
              `Could not open the browser: ${error.message} Is a desktop session with a default browser available?`,
            );
          }
          throw error;
        }
        return ok(`Opened ${url} in the system browser.`, `opened ${url}`);
      }),
  };
}
