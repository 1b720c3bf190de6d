/**
 * The skill trust file (`<home>/data/skills-trust.json`) damaged: cut, junk bytes, a folder in
 * its place, deleted. Trust is never guessed from a damaged file (every workspace skill asks
 * again), the original is kept aside before the next write and the warning names the copy.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SkillTrust, TRUST_FILE } from '../../src/skills/trust.js';

let data: string;
let warnings: string[];
beforeEach(() => {
  data = fs.mkdtempSync(path.join(os.tmpdir(), 'cogito-trust-'));
  warnings = [];
});
afterEach(() => fs.rmSync(data, { recursive: true, force: true }));

const file = (): string => path.join(data, TRUST_FILE);
const open = (): SkillTrust => SkillTrust.inData(data, (m) => warnings.push(m));
const asides = (): string[] =>
  fs
    .readdirSync(data)
    .filter((n) => n.includes('.corrupt-'))
    .map((n) => path.join(data, n));

/** The trust file with one skill trusted, and its bytes. */
function seeded(): Buffer {
  open().trust('/ws/.agents/skills/a/SKILL.md', 'hash-a');
  return fs.readFileSync(file());
}

describe('a damaged skill trust file', () => {
  const damages: [string, (whole: Buffer) => void][] = [
    ['cut by 4 bytes', (whole) => fs.writeFileSync(file(), whole.subarray(0, -4))],
    [
      'junk bytes',
      (whole) => fs.writeFileSync(file(), Buffer.concat([whole, Buffer.from([0xff, 0x00, 0x7b])])),
    ],
  ];
  for (const [name, damage] of damages) {
    it(`${name}: nothing trusted, the original kept and named, the next yes written anew`, () => {
      damage(seeded());
      const damaged = fs.readFileSync(file());
      const trust = open();
      expect(trust.trusted('/ws/.agents/skills/a/SKILL.md', 'hash-a')).toBe(false);
      const [kept] = asides();
      expect(kept).toBeDefined();
      expect(fs.readFileSync(kept!)).toEqual(damaged);
      expect(warnings.join('\n')).toContain(kept!);
      trust.trust('/ws/.agents/skills/b/SKILL.md', 'hash-b');
      expect(open().trusted('/ws/.agents/skills/b/SKILL.md', 'hash-b')).toBe(true);
      expect(fs.readFileSync(kept!)).toEqual(damaged);
    });
  }

  it('a folder in its place: moved aside whole and named; trust is kept again', () => {
    seeded();
    fs.rmSync(file());
    fs.mkdirSync(file());
    fs.writeFileSync(path.join(file(), 'inside.txt'), 'kept');
    const trust = open();
    const [kept] = asides();
    expect(fs.readFileSync(path.join(kept!, 'inside.txt'), 'utf8')).toBe('kept');
    expect(warnings.join('\n')).toContain(kept!);
    trust.trust('/ws/x/SKILL.md', 'h');
    expect(open().trusted('/ws/x/SKILL.md', 'h')).toBe(true);
  });

  it('deleted: nothing trusted, no warning', () => {
    seeded();
    fs.rmSync(file());
    expect(open().trusted('/ws/.agents/skills/a/SKILL.md', 'hash-a')).toBe(false);
    expect(warnings).toEqual([]);
  });
});
