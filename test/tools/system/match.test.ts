import { describe, expect, it } from 'vitest';
import { findApp, nearNames, normalizeName } from '../../../src/tools/system/match.js';
import type { AppInfo } from '../../../src/tools/system/types.js';

const app = (name: string, aliases: string[] = [], processNames: string[] = []): AppInfo => ({
  name,
  aliases,
  processNames,
  source: `/apps/${name}`,
});

const apps = [
  app('Firefox', ['火狐浏览器'], ['firefox']),
  app('LibreOffice Writer', [], ['soffice']),
  app('LibreOffice Calc', [], ['soffice']),
  app('Visual Studio Code', [], ['code']),
  app('Calculator', ['计算器'], ['gnome-calculator']),
];

describe('findApp', () => {
  it('matches names, aliases and process names exactly, ignoring case and suffixes', () => {
    expect(findApp(apps, 'FIREFOX')).toMatchObject({ kind: 'found', app: { name: 'Firefox' } });
    expect(findApp(apps, '火狐浏览器')).toMatchObject({ kind: 'found', app: { name: 'Firefox' } });
    expect(findApp(apps, 'code.exe')).toMatchObject({
      kind: 'found',
      app: { name: 'Visual Studio Code' },
    });
    expect(findApp(apps, 'Calculator.app')).toMatchObject({
      kind: 'found',
      app: { name: 'Calculator' },
    });
  });

  it('accepts a unique partial name and reports ambiguity', () => {
    expect(findApp(apps, 'writer')).toMatchObject({
      kind: 'found',
      app: { name: 'LibreOffice Writer' },
    });
    const lookup = findApp(apps, 'libreoffice');
    expect(lookup.kind).toBe('ambiguous');
    expect(lookup.kind === 'ambiguous' && lookup.candidates.map((entry) => entry.name)).toEqual([
      'LibreOffice Writer',
      'LibreOffice Calc',
    ]);
  });

  it('suggests near names when nothing matches', () => {
    expect(findApp(apps, 'firefux')).toEqual({ kind: 'missing', near: ['Firefox'] });
    expect(findApp(apps, 'zz')).toEqual({ kind: 'missing', near: [] });
  });
});

describe('helpers', () => {
  it('normalizes width, case, spaces and suffixes', () => {
    expect(normalizeName('  Ｆｉｒｅｆｏｘ  ')).toBe('firefox');
    expect(normalizeName('Visual   Studio Code.app')).toBe('visual studio code');
    expect(normalizeName('org.gnome.Calculator.desktop')).toBe('org.gnome.calculator');
  });

  it('ranks near names by closeness', () => {
    expect(nearNames(['chrome', 'chromium', 'firefox'], 'chrom')).toEqual(['chrome', 'chromium']);
  });
});
