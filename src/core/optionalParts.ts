/**
 * The parts of Cogito a user adds only if they want them (issue 33.8): they are optional peer
 * dependencies, so `npm install -g cogito` adds Cogito alone, CPU-only, with no install
 * scripts. A feature that needs a missing one says the exact command that adds it. The
 * versions are package.json's (test/core/optionalParts.test.ts holds them equal).
 */

export const OPTIONAL_PARTS = {
  /** Reading text in scans and photos (brings onnxruntime-node's CPU build). */
  ocr: { packages: ['@gutenye/ocr-node@1.4.8', 'sharp@0.33.5'], what: 'OCR' },
  /** Running a GGUF model in-process (its prebuilt CPU binary loads with no download). */
  localModel: { packages: ['node-llama-cpp@3.21.1'], what: 'the local model runtime' },
} as const;

export type OptionalPart = keyof typeof OPTIONAL_PARTS;

/**
 * The command that adds `part`: beside a global install (`npm install -g cogito`), npm's
 * global folder is where the installed copy finds it; a clone's `npm install` has it already.
 */
export function installCommand(part: OptionalPart): string {
  return `npm install -g ${OPTIONAL_PARTS[part].packages.join(' ')}`;
}

/** "… is not installed: add it with npm install -g … (in a clone of Cogito: npm install)". */
export function missingPartHint(part: OptionalPart): string {
  return `add it with: ${installCommand(part)} (in a clone of Cogito: npm install)`;
}
