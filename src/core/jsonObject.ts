/**
 * A line of a JSON-lines state file read as an object, or undefined when it is not JSON or not
 * an object: the callers then check each field they need and skip the line as damage.
 */
export function jsonObject(text: string): Record<string, unknown> | undefined {
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch {
    return undefined;
  }
  return typeof v === 'object' && v !== null && !Array.isArray(v)
    ? (v as Record<string, unknown>)
    : undefined;
}
