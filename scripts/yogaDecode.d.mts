/** Types for the plain-JavaScript scripts/yogaDecode.mjs (the build imports it unbuilt). */
export const YOGA_LOOP: string;
export const YOGA_BUFFER: string;
export const YOGA_FETCH: string;
export const YOGA_NO_FETCH: string;
export function patchYoga(source: string): string;
export const yogaDecode: { name: string; setup(build: unknown): void };
