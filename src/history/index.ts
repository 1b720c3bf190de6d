/** Crash-safe conversation persistence: sessions, the folder lock, the legacy import. */
export type { AppendResult, HistoryWriteError } from './appendResult.js';
export type { Durability } from './jsonlLog.js';
export type { HistoryRecord } from './records.js';
export { Session } from './sessionFiles.js';
export type { SessionOptions } from './sessionFiles.js';
export { SessionError, SessionStore } from './sessionStore.js';
export type { SessionInfo, SessionStoreOptions } from './sessionStore.js';
export { acquireFolderLock, folderLockFile, LOCK_FILE } from './lock.js';
export type { FolderLock } from './lock.js';
export { importConversationJson, IMPORT_MARKER } from './importConversation.js';
export type { ImportResult } from './importConversation.js';
