import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildCatalogue } from '../../src/skills/catalogue.js';
import { discoverSkills, skillRoots } from '../../src/skills/discover.js';
import { expandSkillCommand } from '../../src/skills/command.js';
import { SkillLibrary } from '../../src/skills/library.js';
import { SkillTrust } from '../../src/skills/trust.js';
import { parseFrontMatter } from '../../src/core/frontMatter.js';

let tmp: string;
let ws: string;
let home: string;
let own: string;

async function skill(root: string, folder: string, text: string): Promise<void> {
  await mkdir(path.join(root, folder), { recursive: true });
  await writeFile(path.join(root, folder, 'SKILL.md'), text);
}

beforeEach(async () => {
  tmp = await mkdtemp(path.join(os.tmpdir(), 'cogito-skills-'));
  ws = path.join(tmp, 'ws');
  home = path.join(tmp, 'home');
  own = path.join(tmp, 'own');
  await mkdir(ws);
  await mkdir(home);
  await mkdir(own);
});
afterEach(async () => {
  await rm(tmp, { recursive: true, force: true });
});

const find = () => discoverSkills(skillRoots(ws, home, own), { workspace: ws, reserved: ['help'] });

describe('finding skills', () => {
  it('reads every place, the workspace winning a clash, each problem a warning naming the file and the fix', async () => {
    const wsSkills = path.join(ws, '.agents', 'skills');
    await skill(wsSkills, 'review', '---\nname: review\ndescription: Review notes.\n---\nBody');
    await skill(
      path.join(ws, '.claude', 'skills'),
      'tidy',
      '---\nname: tidy\ndescription: >\n  Tidy the\n  downloads.\nmetadata:\n  author: x\n---\nTidy',
    );
    await skill(
      path.join(home, 'skills'),
      'review',
      '---\nname: review\ndescription: Home review.\n---\nB',
    );
    await skill(own, 'write-skill', '---\nname: write-skill\ndescription: Write one.\n---\nB');
    await skill(wsSkills, 'noheader', 'just text');
    await skill(wsSkills, 'noname', '---\ndescription: d\n---\n');
    await skill(wsSkills, 'bad-name', '---\nname: Bad Name\ndescription: d\n---\n');
    await skill(wsSkills, 'nodesc', '---\nname: nodesc\n---\n');
    await skill(wsSkills, 'help', '---\nname: help\ndescription: clashes with /help\n---\n');
    await mkdir(path.join(wsSkills, 'scripts-only'));
    const { skills, warnings } = find();
    expect(skills.map((s) => `${s.name}:${s.source}`)).toEqual([
      'help:workspace',
      'review:workspace',
      'tidy:workspace',
      'write-skill:cogito',
    ]);
    expect(skills.find((s) => s.name === 'tidy')?.description).toBe('Tidy the downloads.');
    const all = warnings.join('\n');
    expect(all).toContain('.agents/skills/noheader/SKILL.md is ignored: it has no front matter');
    expect(all).toContain(
      '.agents/skills/noname/SKILL.md is ignored: its front matter has no name. Add a line name: noname.',
    );
    expect(all).toMatch(/bad-name\/SKILL.md is ignored: its name "Bad Name" .*name: bad-name/);
    expect(all).toContain('nodesc/SKILL.md is ignored: its front matter has no description');
    expect(all).toMatch(
      /home\/skills\/review\/SKILL.md is ignored: .agents\/skills\/review\/SKILL.md has the same name and comes first/,
    );
    expect(all).toContain('has the name of the built-in command /help');
    expect(warnings.join('\n')).not.toContain('scripts-only');
  });

  it('refuses a workspace skill folder that links outside the workspace', async () => {
    await skill(path.join(tmp, 'elsewhere'), 'evil', '---\nname: evil\ndescription: e\n---\nB');
    await mkdir(path.join(ws, '.agents', 'skills'), { recursive: true });
    await symlink(path.join(tmp, 'elsewhere', 'evil'), path.join(ws, '.agents', 'skills', 'evil'));
    const { skills, warnings } = find();
    expect(skills).toEqual([]);
    expect(warnings.join('\n')).toMatch(
      /\.agents\/skills\/evil is ignored: it leads outside the workspace/,
    );
  });

  it('caps the catalogue in count and bytes and names what it cut; the same skills give the same bytes', async () => {
    for (let i = 0; i < 5; i++)
      await skill(
        path.join(home, 'skills'),
        `s${i}`,
        `---\nname: s${i}\ndescription: ${'x'.repeat(50)}\n---\n`,
      );
    const { skills } = find();
    const cat = buildCatalogue(skills, { maxSkills: 3 });
    expect(cat.listed).toEqual(['s0', 's1', 's2']);
    expect(cat.text).toContain('still loadable by name: s3, s4.');
    expect(buildCatalogue(skills, { maxBytes: 130 }).cut).toEqual(['s2', 's3', 's4']);
    expect(buildCatalogue(find().skills, { maxSkills: 3 }).text).toBe(cat.text);
  });

  it('fills $ARGUMENTS and $1.. into a command; args without a placeholder follow the body', async () => {
    await skill(
      path.join(home, 'skills'),
      'file-it',
      '---\nname: file-it\ndescription: d\n---\nFile $1 into $2. All: $ARGUMENTS',
    );
    await skill(
      path.join(home, 'skills'),
      'plain',
      '---\nname: plain\ndescription: d\n---\nDo it.',
    );
    const lib = new SkillLibrary(
      skillRoots(ws, home, own),
      ws,
      new SkillTrust(path.join(tmp, 't.json')),
    );
    const run = expandSkillCommand(lib, 'file-it', '"my notes.md" archive/');
    expect(run && 'text' in run && run.text).toMatch(
      /File my notes\.md into archive\/\. All: "my notes\.md" archive\/$/,
    );
    const plain = expandSkillCommand(lib, 'plain', 'now please');
    expect(plain && 'text' in plain && plain.text).toMatch(/Do it\.\n\nARGUMENTS: now please$/);
    expect(expandSkillCommand(lib, 'nothing', '')).toBeUndefined();
  });

  it('parses front matter without throwing on odd input', () => {
    expect(parseFrontMatter('---\nname: a\n').ok).toBe(false);
    expect(parseFrontMatter('---\n  orphan\n---\n').ok).toBe(false);
    const r = parseFrontMatter('---\nname: "a"\ndescription: |\n  one\n  two\n---\nbody');
    expect(r.ok && r.fields).toEqual({ name: 'a', description: 'one\ntwo' });
  });
});
