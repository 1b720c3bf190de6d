/** Types for the plain-JavaScript scripts/checkoutBuild.mjs (bin/cogito.js imports it unbuilt). */
export function checkoutBuild(
  root: string,
  io: { stderr: { write(text: string): unknown }; build?: () => Promise<unknown> },
): Promise<string | undefined>;
