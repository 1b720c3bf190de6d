import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { builtinPersonasDir } from '../../src/config/paths.js';
import { parseFrontMatter } from '../../src/core/frontMatter.js';
import { findPersona, loadPersonas } from '../../src/personas/load.js';

const BUILTIN_IDS = [
  'assistant',
  'chef',
  'creative',
  'critic',
  'detective',
  'explorer',
  'hermit',
  'merchant',
  'painter',
  'programmer',
  'psychologist',
  'scholar',
  'teacher',
];

let tmp: string;
beforeEach(async () => {
  tmp = await mkdtemp(path.join(os.tmpdir(), 'cogito-personas-'));
});
afterEach(async () => {
  await rm(tmp, { recursive: true, force: true });
});

const persona = (id: string, name: string, body = 'You are a test persona.') =>
  `---\nid: ${id}\nname: ${name}\nname_zh: 测试\ndescription: A test persona.\n---\n${body}\n`;

describe('built-in personas', () => {
  const { personas, warnings } = loadPersonas({ builtinDir: builtinPersonasDir() });

  it('loads all 13 without warnings', () => {
    expect(warnings).toEqual([]);
    expect(personas.map((p) => p.id).sort()).toEqual(BUILTIN_IDS);
  });

  it.each(BUILTIN_IDS)(
    '%s has names in both languages, a one-line description and a 150–300 word body',
    (id) => {
      const p = personas.find((x) => x.id === id);
      expect(p).toBeDefined();
      if (!p) return;
      expect(p.source).toBe('builtin');
      expect(p.nameZh).toMatch(/\p{Script=Han}/u);
      expect(p.name).not.toBe(p.nameZh);
      expect(p.description.length).toBeGreaterThan(20);
      expect(p.descriptionZh).toMatch(/\p{Script=Han}/u);
      const words = p.prompt.split(/\s+/).filter(Boolean).length;
      expect(words).toBeGreaterThanOrEqual(150);
      expect(words).toBeLessThanOrEqual(300);
      // Every persona says when it hands the turn back to the user.
      expect(p.prompt).toContain('[WAIT]');
    },
  );
});

describe('user personas', () => {
  it('adds files from <home>/personas and lets them override a built-in by id', async () => {
    await mkdir(path.join(tmp, 'personas'));
    await writeFile(path.join(tmp, 'personas', 'pirate.md'), persona('pirate', 'Pirate'));
    await writeFile(
      path.join(tmp, 'personas', 'my-chef.md'),
      persona('chef', 'My Chef', 'Only noodles.'),
    );
    const { personas, warnings } = loadPersonas({ builtinDir: builtinPersonasDir(), home: tmp });
    expect(warnings).toEqual([]);
    expect(personas).toHaveLength(14);
    expect(findPersona(personas, 'pirate')?.source).toBe('user');
    const chef = findPersona(personas, 'chef');
    expect(chef).toMatchObject({ name: 'My Chef', prompt: 'Only noodles.', source: 'user' });
  });

  it('reads <home>/persona.md, with id "custom" when it gives none', async () => {
    await writeFile(
      path.join(tmp, 'persona.md'),
      '---\nname: Gardener\ndescription: Tends plants.\n---\nYou garden.',
    );
    const { personas, warnings } = loadPersonas({ builtinDir: builtinPersonasDir(), home: tmp });
    expect(warnings).toEqual([]);
    expect(findPersona(personas, 'custom')).toMatchObject({
      name: 'Gardener',
      nameZh: 'Gardener',
      prompt: 'You garden.',
    });
  });

  it('lets persona.md override a built-in when it names that id', async () => {
    await writeFile(path.join(tmp, 'persona.md'), persona('hermit', 'Loud Hermit'));
    const { personas } = loadPersonas({ builtinDir: builtinPersonasDir(), home: tmp });
    expect(findPersona(personas, 'hermit')?.name).toBe('Loud Hermit');
  });

  it('warns about a broken file by name and what is missing, and loads the rest', async () => {
    const dir = path.join(tmp, 'builtin');
    await mkdir(dir);
    await writeFile(path.join(dir, 'good.md'), persona('good', 'Good'));
    await writeFile(path.join(dir, 'noname.md'), '---\nid: noname\n---\nBody.');
    await writeFile(path.join(dir, 'nofront.md'), 'Just text.');
    await writeFile(path.join(dir, 'unclosed.md'), '---\nid: x\nname: X\n');
    await writeFile(path.join(dir, 'badline.md'), '---\nid: y\nthis line has no colon\n---\nBody');
    await writeFile(path.join(dir, 'badid.md'), persona('Bad Id!', 'Bad'));
    await writeFile(path.join(dir, 'nobody.md'), persona('nobody', 'Nobody', ''));
    await writeFile(path.join(dir, 'notes.txt'), 'ignored');
    const { personas, warnings } = loadPersonas({ builtinDir: dir });
    expect(personas.map((p) => p.id)).toEqual(['good']);
    const about = (name: string) => warnings.find((w) => w.includes(path.join(dir, name))) ?? '';
    expect(warnings).toHaveLength(6);
    expect(about('noname.md')).toMatch(/missing name, description/);
    expect(about('nofront.md')).toMatch(/no front matter/);
    expect(about('unclosed.md')).toMatch(/never closed/);
    expect(about('badline.md')).toMatch(/not "key: value" \(line 3/);
    expect(about('badid.md')).toMatch(/lower-case/);
    expect(about('nobody.md')).toMatch(/no text after its front matter/);
  });

  it('warns when the built-in folder is missing instead of throwing', () => {
    const { personas, warnings } = loadPersonas({ builtinDir: path.join(tmp, 'nope') });
    expect(personas).toEqual([]);
    expect(warnings[0]).toMatch(/cannot be read \(ENOENT\)/);
  });
});

describe('findPersona', () => {
  const { personas } = loadPersonas({ builtinDir: builtinPersonasDir() });
  it.each([
    ['detective', 'detective'],
    ['Detective', 'detective'],
    ['  DETECTIVE ', 'detective'],
    ['侦探', 'detective'],
    ['心理咨询师', 'psychologist'],
    ['隐士', 'hermit'],
  ])('finds %j', (query, id) => {
    expect(findPersona(personas, query)?.id).toBe(id);
  });
  it('returns undefined for no match or an empty query', () => {
    expect(findPersona(personas, 'astronaut')).toBeUndefined();
    expect(findPersona(personas, ' ')).toBeUndefined();
  });
});

describe('parseFrontMatter', () => {
  it('reads key: value lines, strips quotes, keeps colons in values and skips comments', () => {
    const parsed = parseFrontMatter(
      '\uFEFF\n---\r\nid: a\r\nname: "Ms: A"\r\n# note\r\ndescription: \'x: y\'\r\n---\r\n\r\nBody\r\n',
    );
    expect(parsed).toEqual({
      ok: true,
      fields: { id: 'a', name: 'Ms: A', description: 'x: y' },
      body: 'Body',
    });
  });
});
