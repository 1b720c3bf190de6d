/**
 * The file-system port lives in core (src/core/fsPort.ts) so every state file's code can use
 * it; the history code and its tests import it from here.
 */
export * from '../core/fsPort.js';
