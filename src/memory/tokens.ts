/**
 * A fast token estimate for when the server sends no usage (and to size the next request
 * before it is sent). CJK characters are about one token each; other text about four
 * characters a token. Deliberately cheap: it runs on every turn over the whole context.
 */
export function estimateTokens(text: string): number {
  let cjk = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (
      (c >= 0x3000 && c <= 0x9fff) ||
      (c >= 0xac00 && c <= 0xd7af) ||
      (c >= 0xf900 && c <= 0xfaff)
    )
      cjk++;
  }
  return cjk + Math.ceil((text.length - cjk) / 4);
}
