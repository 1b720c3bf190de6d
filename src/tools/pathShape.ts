/**
 * Shape checks on a path argument before it is resolved. None of these forms would be
 * expanded by Node (`~` is not the home folder, `%2e%2e` is not `..`), but a model writing
 * them means a place outside the workspace, so they are refused with a reason instead of
 * silently becoming odd file names inside it.
 */
import path from 'node:path';

/** Home-folder forms: `~`, `~/x`, `~\x`, `~user/x`. A bare `~draft.txt` stays a file name. */
const HOME_FORM = /^~([/\\]|$)|^~[A-Za-z_][\w.-]*[/\\]/;
/** Windows drive forms: `C:\x`, `C:/x`, `C:x`, `C:`. */
const DRIVE_FORM = /^[A-Za-z]:/;
/** UNC and device forms: `\\server\share`, `//server/share`, `\\?\C:\`. */
const UNC_FORM = /^(\\\\|\/\/|\\\/|\/\\)/;
/** URLs such as `file:///etc/passwd`: a path argument is never a URL. */
const URL_FORM = /^[A-Za-z][A-Za-z0-9+.-]+:\/\//;

/**
 * Returns why `input` is refused, or undefined when its shape is acceptable.
 * `posix` is whether the host uses POSIX paths; Windows forms are only rejected there,
 * because on Windows they are real absolute paths that the containment check handles.
 */
export function checkPathShape(input: string, posix = path.sep === '/'): string | undefined {
  if (input.includes('\0')) return 'it contains a NUL byte';
  if (HOME_FORM.test(input)) return 'it starts with ~, which means a home folder';
  if (URL_FORM.test(input)) return 'it is a URL, not a file path';
  if (posix) {
    if (DRIVE_FORM.test(input)) return 'it is a Windows drive path';
    if (UNC_FORM.test(input)) return 'it is a network (UNC) path';
    if (input.split('\\').includes('..')) return 'it climbs out with ..\\ (a Windows-style path)';
  }
  const decoded = percentDecode(input);
  if (decoded !== input) {
    const segments = decoded.split(/[/\\]/);
    if (segments.includes('..') || decoded.includes('\0') || path.isAbsolute(decoded)) {
      return 'it contains URL-encoded characters (such as %2e%2e) that spell an escape';
    }
  }
  return undefined;
}

/** Decodes %XX escapes repeatedly (double encoding included); invalid escapes stay as they are. */
function percentDecode(s: string): string {
  let current = s;
  for (let i = 0; i < 3 && /%[0-9a-f]{2}/i.test(current); i++) {
    const next = current.replace(/(%[0-9a-f]{2})+/gi, (run) => {
      try {
        return decodeURIComponent(run);
      } catch {
        return run;
      }
    });
    if (next === current) break;
    current = next;
  }
  return current;
}
