import type { CliFlags } from '../../src/cli/args.js';

/** The flags of a plain `cogito` (no option given), for tests that call runTui directly. */
export const NO_FLAGS: Readonly<CliFlags> = Object.freeze({
  json: false,
  continue: false,
  verbose: false,
  force: false,
  where: false,
  paused: false,
  setup: false,
  debug: false,
  version: false,
  help: false,
});
