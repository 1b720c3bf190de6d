/**
 * notify-send's body is read as markup by the notification servers people run (GNOME Shell,
 * KDE, xfce, dunst, mako: the freedesktop spec's "body-markup"), and some of them turn bare
 * addresses into links (GNOME's URL highlighter). The body comes from the model, and a web
 * page the agent read can steer it: `<a href="http://evil.example/login">sign in</a>` would be
 * a clickable phishing link in a notification titled "Cogito". So the body is plain text:
 * `&`, `<` and `>` are escaped (they show as themselves), and in anything that looks like an
 * address an invisible WORD JOINER (U+2060) comes before each ":", "." and "/", so no
 * highlighter finds "scheme://", "www." or "host.tld/" in it, while it still reads the same.
 */

const WORD_JOINER = '\u2060';

// What the highlighters take for an address: a scheme, "www.", or host.tld/ with a path.
const ADDRESS =
  /\b[a-z][a-z0-9+.-]*:\/\/[^\s<>"']*|\bwww\d{0,3}\.[^\s<>"']*|\b[a-z0-9-]+(?:\.[a-z0-9-]+)+\/[^\s<>"']*/gi;

const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;' };

/** `text` (already one clean line) as a notify-send body that shows as written, with no links. */
export function plainBody(text: string): string {
  const unlinked = text.replace(ADDRESS, (address) =>
    address.replace(/[:./]/g, (c) => `${WORD_JOINER}${c}`),
  );
  return unlinked.replace(/[&<>]/g, (c) => ENTITIES[c]!);
}
