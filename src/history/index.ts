/** Crash-safe conversation persistence: sessions, the folder lock, the legacy import. */
export type { AppendResult } from './appendResult.js';
export type { Durability } from './jsonlLog.js';
export { Session } from './sessionFiles.js';
export { SessionStore } from './sessionStore.js';
export type { SessionInfo } from './sessionStore.js';
export type { SessionKind } from './meta.js';
