import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ANSWERS_FILE, AnswerLog, loadAnswers } from '../../src/history/answerLog.js';
import { makeTmpDir } from './tmpDir.js';

describe('the approval answers file (answers.jsonl)', () => {
  let tmp: ReturnType<typeof makeTmpDir>;
  let file: string;
  beforeEach(() => {
    tmp = makeTmpDir('cogito-answers-');
    file = path.join(tmp.dir, ANSWERS_FILE);
  });
  afterEach(() => tmp.cleanup());

  const log = (): AnswerLog => new AnswerLog(() => tmp.dir);
  const asides = (): string[] => fs.readdirSync(tmp.dir).filter((n) => n.includes('.corrupt-'));

  it('an answer whose call ended is not told; the file starts over empty', () => {
    log().answered({ id: 1, call: 'run("make")', answer: 'yes', at: 1000 });
    log().done(1);
    expect(loadAnswers(tmp.dir)).toEqual({ unfinished: [], warnings: [] });
    expect(fs.readFileSync(file, 'utf8')).toBe('');
  });

  it('an answer without its "done" is told once, with its call, answer and time', () => {
    const l = log();
    l.answered({ id: 1, call: 'run("make")', answer: 'yes', at: 1000 });
    l.done(1);
    l.answered({ id: 2, call: 'run("rm -r build")', answer: 'always', at: 2000 });
    expect(loadAnswers(tmp.dir).unfinished).toEqual([
      { id: 2, call: 'run("rm -r build")', answer: 'always', at: 2000 },
    ]);
    expect(loadAnswers(tmp.dir).unfinished).toEqual([]);
    expect(asides()).toEqual([]);
  });

  it('a last line cut by a kill was never acknowledged: skipped, nothing kept aside', () => {
    log().answered({ id: 1, call: 'run("make")', answer: 'yes', at: 1000 });
    fs.appendFileSync(file, '{"t":"done","i');
    const loaded = loadAnswers(tmp.dir);
    expect(loaded.unfinished.map((u) => u.id)).toEqual([1]);
    expect(loaded.warnings).toEqual([]);
    expect(asides()).toEqual([]);
  });

  it('junk bytes in a line: the readable answers are told, the original is kept aside', () => {
    log().answered({ id: 1, call: 'run("make")', answer: 'yes', at: 1000 });
    fs.appendFileSync(file, Buffer.from([0xff, 0xfe, 0x0a]));
    log().answered({ id: 2, call: 'run("make test")', answer: 'no', at: 2000 });
    const original = fs.readFileSync(file);
    const loaded = loadAnswers(tmp.dir, { now: 5000 });
    expect(loaded.unfinished.map((u) => u.id)).toEqual([1, 2]);
    const [aside] = asides();
    expect(aside).toBeDefined();
    expect(loaded.warnings[0]).toContain(path.join(tmp.dir, aside!));
    expect(fs.readFileSync(path.join(tmp.dir, aside!))).toEqual(original);
    expect(fs.readFileSync(file, 'utf8')).toBe('');
  });

  it('a folder in its place is moved aside whole, with a warning naming it', () => {
    fs.mkdirSync(file);
    fs.writeFileSync(path.join(file, 'inside.txt'), 'kept');
    const loaded = loadAnswers(tmp.dir, { now: 5000 });
    const [aside] = asides();
    expect(loaded.warnings[0]).toContain(aside!);
    expect(fs.readFileSync(path.join(tmp.dir, aside!, 'inside.txt'), 'utf8')).toBe('kept');
    expect(log().answered({ id: 1, call: 'x()', answer: 'yes', at: 1 })).toEqual({ ok: true });
  });

  it('a call of megabytes is kept cut to its first 2,000 characters', () => {
    const call = `create("big.txt", "${'x'.repeat(3_000_000)}")`;
    log().answered({ id: 1, call, answer: 'yes', at: 1 });
    const [u] = loadAnswers(tmp.dir).unfinished;
    expect(u!.call).toBe(`${call.slice(0, 2000)}…`);
  });

  it('a write that fails is reported, never thrown', () => {
    fs.mkdirSync(file);
    const result = log().answered({ id: 1, call: 'x()', answer: 'yes', at: 1 });
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error.message).toContain(file);
  });
});
