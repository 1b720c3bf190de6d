/** An installed application as listApps reports it, whatever the platform. */
export interface AppInfo {
  /** The name shown to the model and matched by openApp / closeApp. */
  name: string;
  /** Other names it answers to, e.g. the `Name[zh_CN]` of a desktop entry. */
  aliases: string[];
  /** Where it was found: a `.desktop` file, a `.app` bundle, or a registry uninstall key. */
  source: string;
  /**
   * What the platform launches: the Exec line (Linux), the bundle path (macOS), the
   * program path (Windows). Undefined when nothing launchable is known.
   */
  target?: string;
  /** Process names (without `.exe`) the running app is expected to have, for closeApp. */
  processNames: string[];
  /** Linux `Terminal=true`: a console program that needs a terminal to be useful. */
  terminal?: boolean;
}

/** A running process. */
export interface ProcessInfo {
  pid: number;
  /** Program name: `firefox`, `Safari`, `chrome.exe`. */
  name: string;
  /** Resident memory in KiB, when the platform reports it. */
  memoryKb?: number;
  /** Full command line or executable path, when known. */
  command?: string;
}

/** One platform's way of doing the four system operations. */
export interface SystemPlatform {
  readonly label: 'Linux' | 'macOS' | 'Windows';
  listApps(signal: AbortSignal): Promise<AppInfo[]>;
  /** Starts the app detached; throws a ToolFailure when it cannot. */
  openApp(app: AppInfo, signal: AbortSignal): Promise<void>;
  listProcesses(signal: AbortSignal): Promise<ProcessInfo[]>;
  /** Asks the given processes to exit (politely: SIGTERM / WM_CLOSE); returns a summary. */
  closeProcesses(processes: readonly ProcessInfo[], signal: AbortSignal): Promise<string>;
}

/** Sends a signal to a pid (`process.kill` by default; a stub in tests). */
export type KillFn = (pid: number, signal: NodeJS.Signals) => void;
