import { describe, expect, it } from 'vitest';
import {
  execToArgv,
  parseDesktopEntry,
  tokenizeExec,
  unescapeValue,
} from '../../../src/tools/system/desktopEntry.js';

describe('parseDesktopEntry', () => {
  it('reads the main group only, with localized names and flags', () => {
    const entry = parseDesktopEntry(
      '\uFEFF# comment\n[Desktop Entry]\nType=Application\nName=Files\nName[zh_CN]=文件\nExec=nautilus --new-window %U\n' +
        'NoDisplay=true\nHidden=false\nTerminal=true\nPath=/tmp\n\n[Desktop Action new]\nName=Other\nExec=other\n',
    );
    expect(entry).toEqual({
      type: 'Application',
      name: 'Files',
      localizedNames: { zh_CN: '文件' },
      exec: 'nautilus --new-window %U',
      noDisplay: true,
      hidden: false,
      terminal: true,
      path: '/tmp',
    });
  });

  it('handles CRLF files and keys before any group are ignored', () => {
    const entry = parseDesktopEntry(
      'Name=Stray\r\n[Desktop Entry]\r\nName=Real\r\nType=Application\r\n',
    );
    expect(entry.name).toBe('Real');
  });
});

describe('Exec lines', () => {
  it('unescapes string values first', () => {
    expect(unescapeValue('a\\sb\\tc\\\\d\\"e')).toBe('a b\tc\\d\\"e');
  });

  it('tokenizes quotes and the escapes allowed inside them', () => {
    expect(
      tokenizeExec('prog "a b" "say \\"hi\\"" "\\$HOME" "\\`x\\`" "back\\\\slash" plain'),
    ).toEqual(['prog', 'a b', 'say "hi"', '$HOME', '`x`', 'back\\slash', 'plain']);
    expect(tokenizeExec('  prog   ""  x ')).toEqual(['prog', '', 'x']);
  });

  it('keeps shell syntax as literal text', () => {
    expect(tokenizeExec('sh-free ; rm -rf / && $(id) `id` | x')).toEqual([
      'sh-free',
      ';',
      'rm',
      '-rf',
      '/',
      '&&',
      '$(id)',
      '`id`',
      '|',
      'x',
    ]);
  });

  it('refuses an unterminated quote', () => {
    expect(() => tokenizeExec('prog "open')).toThrow(/unterminated quote/);
  });

  it('removes field codes and turns %% into %', () => {
    expect(execToArgv('firefox %u')).toEqual(['firefox']);
    expect(execToArgv('app %f %F %U %i %c %k --x')).toEqual(['app', '--x']);
    expect(execToArgv('app --file=%f 100%% "%%d"')).toEqual(['app', '--file=', '100%', '%d']);
    expect(execToArgv('flatpak run org.app @@u %U @@')).toEqual([
      'flatpak',
      'run',
      'org.app',
      '@@u',
      '@@',
    ]);
  });
});
