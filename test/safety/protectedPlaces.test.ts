import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { classifySegments, ProtectedPlaces } from '../../src/safety/protectedPlaces.js';
import { ownPlaces } from '../../src/safety/ownPlaces.js';

const level = (rel: string): string | undefined => classifySegments(rel.split('/'))?.level;

describe('the protected-places policy', () => {
  it('never: version control anywhere in the tree, and the trash', () => {
    for (const rel of [
      '.git/config',
      'vendor/x/.git/hooks/pre-commit',
      '.hg/hgrc',
      'a/.svn/x',
      '.cogito-trash/x',
    ]) {
      expect(level(rel), rel).toBe('never');
    }
  });

  it('approve: start-up files, autostart and launcher entries, task files, crontabs', () => {
    for (const rel of [
      '.bashrc',
      'home/me/.zprofile',
      '.config/fish/config.fish',
      '.config/autostart/x.desktop',
      '.local/share/applications/firefox.desktop',
      'Library/LaunchAgents/com.x.plist',
      '.vscode/tasks.json',
      '.idea/workspace.xml',
      '.github/workflows/ci.yml',
      'etc/cron.d/job',
      'crontab',
      'Desktop/launcher.desktop',
    ]) {
      expect(level(rel), rel).toBe('approve');
    }
  });

  it('free: ordinary files, including look-alikes', () => {
    for (const rel of [
      'notes/.bashrc.txt',
      'git/config',
      'src/.github/readme.md',
      'desktop.md',
      '.gitignore',
    ]) {
      expect(level(rel), rel).toBeUndefined();
    }
  });

  it('folds case where the file system does (macOS, Windows)', () => {
    const lower = (s: string): string => s.toLowerCase();
    expect(classifySegments(['.GIT', 'config'], lower)?.level).toBe('never');
    expect(classifySegments(['.VSCode', 'tasks.json'], lower)?.level).toBe('approve');
    expect(classifySegments(['.GIT', 'config'])).toBeUndefined();
  });

  it("protects Cogito's home whole when it sits inside the workspace, else only its items", () => {
    const ws = path.resolve('/w');
    const inside = new ProtectedPlaces(ws, ownPlaces('/w/.cogito', '/opt/cogito'), false);
    expect(inside.forWrite('.cogito/anything', '/w/.cogito/anything')?.level).toBe('never');
    const same = new ProtectedPlaces(ws, ownPlaces('/w', '/w'), false);
    for (const rel of [
      'config.json',
      'data/x',
      'personas/p.md',
      'persona.md',
      'cogito.lock',
      'src/a.ts',
      'bin/cogito.js',
      'package.json',
    ]) {
      expect(same.forWrite(rel, path.join(ws, rel))?.level, rel).toBe('never');
    }
    expect(same.forWrite('notes.md', '/w/notes.md')).toBeUndefined();
    // A symlink in the workspace pointing into .git is judged by where it leads.
    expect(same.forWrite('cfg/config', '/w/.git/config')?.level).toBe('never');
  });
});
