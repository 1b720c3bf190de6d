/**
 * A number with its noun in English: `counted(1, 'file')` → "1 file", `counted(2, 'file')` →
 * "2 files", `counted(3, 'match', 'matches')` → "3 matches". For text made outside the
 * message table (tool results); the table has `{n|file|files}` for the same.
 */
export function counted(n: number, one: string, other = `${one}s`): string {
  return `${n} ${n === 1 ? one : other}`;
}
