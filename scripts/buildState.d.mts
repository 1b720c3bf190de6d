/** Types for the plain-JavaScript scripts/buildState.mjs (bin/cogito.js imports it unbuilt). */
export function hashInputs(root: string, files: readonly string[]): string;
export function readManifest(dist: string):
  | {
      sourcesAt: number;
      inputsHash: string;
      inputs: string[];
      packages: string[];
      files?: string[];
    }
  | undefined;
export function buildState(
  root: string,
  dist?: string,
): { fresh: true } | { fresh: false; why: string };
