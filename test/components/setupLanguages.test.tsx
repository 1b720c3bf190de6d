/**
 * Both languages render every screen without a missing string: every wizard step (and its
 * error, verdict and list states) and the main screens (status bar, panes, help overlay,
 * approval prompt, tool detail) are rendered in English and in Chinese, and no frame may
 * show a raw message key or an unfilled {placeholder}.
 */
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { makeMessage } from '../../src/core/messages.js';
import { messages, type Lang } from '../../src/i18n/messages.js';
import { plainText } from '../../components/i18n.js';
import type { ModelList } from '../../src/setup/models.js';
import type { SetupServices } from '../../src/setup/services.js';
import type { ConnectionVerdict } from '../../src/setup/verdict.js';
import { askApproval, createFakeController, toolEntry } from '../helpers/fakeController.js';
import { renderApp } from '../helpers/renderApp.js';
import { KEY, renderWizard, type WizardHarness } from '../helpers/renderWizard.js';
import { replyUpdates } from '../helpers/replyParts.js';

const KEYS = new Set(Object.keys(messages.en));
const NAMESPACES = [...new Set([...KEYS].map((k) => k.split('.')[0]!))];
/** A dotted word starting with one of the table's namespaces, e.g. `setup.verdict.bad_key`. */
const KEY_LIKE = new RegExp(`(?<![\\w/.-])(?:${NAMESPACES.join('|')})\\.[A-Za-z_][\\w.]*`, 'g');
const PLACEHOLDER = /\{\w+\}/g;
const HAN = /\p{Script=Han}/u;

/** Every problem in the frames: raw keys and unfilled placeholders, with the frame's text. */
function leaks(frames: readonly string[]): string[] {
  const found = new Set<string>();
  for (const f of frames) {
    for (const m of f.match(KEY_LIKE) ?? []) found.add(`key ${m}`);
    for (const m of f.match(PLACEHOLDER) ?? []) found.add(`placeholder ${m}`);
  }
  return [...found];
}

let tmp: string;
beforeAll(async () => {
  tmp = await fs.mkdtemp(path.join(os.tmpdir(), 'cogito-lang-'));
  await fs.mkdir(path.join(tmp, 'ws'));
  await fs.writeFile(path.join(tmp, 'file.txt'), 'x');
});
afterAll(async () => {
  await fs.rm(tmp, { recursive: true, force: true });
});

/** Services that answer from queues, so every verdict and error screen can be reached. */
function scriptedServices() {
  let resolveDetect: () => void = () => undefined;
  const detected = new Promise<void>((r) => (resolveDetect = r));
  let releaseSave: () => void = () => undefined;
  const saveGate = new Promise<void>((r) => (releaseSave = r));
  const lists: ModelList[] = [
    { ok: true, models: ['model-a', 'model-b'] },
    { ok: false, kind: 'other', status: 404, message: 'http://h:1/v1/models answered HTTP 404' },
  ];
  const verdicts: ConnectionVerdict[] = [
    { ok: false, kind: 'bad_key', message: 'the server rejected the API key (HTTP 401)' },
    { ok: false, kind: 'unreachable', message: 'could not connect to http://h:1 (refused)' },
    { ok: false, kind: 'unknown_model', message: 'model "x" is not among the models' },
    { ok: false, kind: 'other', message: 'HTTP 500: GPU on fire' },
  ];
  const fileVerdicts: ConnectionVerdict[] = [
    { ok: false, kind: 'bad_file', message: '/m/a.gguf is not a GGUF file' },
  ];
  let saves = 0;
  const services: SetupServices = {
    detect: async () => {
      await detected;
      return [{ presetId: 'ollama', baseURL: 'http://127.0.0.1:11434/v1', models: ['m'] }];
    },
    listModels: async () => lists.shift() ?? { ok: true, models: ['model-a'] },
    verify: async (a) =>
      (a.presetId === 'gguf' ? fileVerdicts : verdicts).shift() ??
      (a.presetId === 'gguf' ? { ok: true, note: 'Tiny · llama · 3 MB' } : { ok: true }),
    localModels: () => Promise.reject(new Error('not used here')),
    downloadModel: () => Promise.reject(new Error('not used here')),
    save: async () => {
      saves += 1;
      if (saves > 1) return { ok: true, file: path.join(tmp, 'config.json') };
      await saveGate;
      return {
        ok: false,
        errors: [{ field: '(file)', problem: 'could not be written (EACCES)', fix: 'Fix it.' }],
      };
    },
  };
  return { services, resolveDetect, releaseSave };
}

/** Walks every screen of the wizard (two providers, every verdict, every error). */
async function walkWizard(lang: Lang): Promise<WizardHarness> {
  const { services, resolveDetect, releaseSave } = scriptedServices();
  const h = await renderWizard({ services, lang, rows: 24 });
  const has = (text: string): Promise<string> => h.waitFor((f) => f.includes(text), text);
  /** Waits for a message (up to its first placeholder) to be on screen. */
  const title = (key: Parameters<typeof plainText>[1]): Promise<string> =>
    has(plainText(lang, key).split('{')[0]!);
  const selected = (re: RegExp): Promise<string> =>
    h.waitFor((f) => f.split('\n').some((l) => l.startsWith('›') && re.test(l)), String(re));

  await title('setup.language');
  h.press(KEY.enter); // keep the language
  await title('setup.detecting');
  resolveDetect();
  await selected(/Ollama/);
  h.type('zzz'); // a filter that matches nothing
  await has('zzz"');
  h.press(KEY.esc); // clears the filter
  await selected(/Ollama/);
  h.press(KEY.down);
  await selected(new RegExp(plainText(lang, 'setup.presetDownload').slice(0, 6)));
  h.press(KEY.down);
  await selected(/DeepSeek/);
  h.press(KEY.enter);
  await title('setup.apiKeyHintRequired');
  h.press(KEY.enter); // empty key: refused
  await title('setup.apiKeyEmpty');
  h.press(KEY.esc);
  await selected(/DeepSeek/);
  for (let i = 0; i < 6; i++) h.press(KEY.down);
  await selected(/vLLM/); // the custom preset
  h.press(KEY.enter);
  await title('setup.baseUrlHint');
  h.type('nope');
  h.press(KEY.enter);
  await title('setup.baseUrlInvalid');
  h.press(KEY.ctrl('u'));
  h.type('http://h:1/v1');
  h.press(KEY.enter);
  await title('setup.apiKeyHint');
  h.press(KEY.enter); // no key: fine for a custom server
  await selected(/model-a/);
  h.press(KEY.down, KEY.down);
  await selected(new RegExp(plainText(lang, 'setup.modelOther').slice(0, 4)));
  h.press(KEY.enter); // another model: typed
  await title('setup.modelHint');
  h.press(KEY.ctrl('u'), KEY.enter); // empty name: refused
  await title('setup.modelEmpty');
  h.press(KEY.esc); // back to the list
  await has('model-b');
  h.press(KEY.esc); // back to the key
  await title('setup.apiKeyHint');
  h.press(KEY.enter); // the list fails this time: typed, with the reason
  await has('HTTP 404');
  h.type('x');
  h.press(KEY.enter); // the test: every failed verdict, then a pass
  for (const kind of ['bad_key', 'unreachable', 'unknown_model', 'other'] as const) {
    await title(`setup.verdict.${kind}`);
    h.press(KEY.enter);
  }
  await title('setup.checkOk');
  h.press(KEY.enter);
  await title('setup.personaHint'); // a list longer than the room
  h.press(KEY.enter);
  await title('setup.confirm');
  h.press(KEY.enter); // the first save waits, then fails
  await title('setup.saving');
  releaseSave();
  await has('EACCES');
  // Back to the provider (through the test, which passes now) for the GGUF file.
  const back = [
    'setup.personaHint',
    'setup.checkOk',
    'setup.modelsPick',
    'setup.apiKeyHint',
    'setup.baseUrlHint',
    'setup.provider',
  ] as const;
  for (const key of back) {
    h.press(KEY.esc);
    await title(key);
  }
  await selected(/vLLM/);
  h.press(KEY.down);
  await selected(/GGUF/);
  h.press(KEY.enter);
  await title('setup.modelPathHint');
  h.press(KEY.ctrl('u'), KEY.enter); // empty: refused
  await title('setup.modelPathEmpty');
  h.type('/m/a.gguf');
  h.press(KEY.enter);
  await title('setup.verdict.bad_file');
  h.press(KEY.enter); // passes, with the file's note
  await has('Tiny · llama');
  h.press(KEY.enter);
  await title('setup.personaHint');
  h.press(KEY.enter);
  await title('setup.summary.modelPath');
  h.press(KEY.enter); // saves
  await h.done();
  return h;
}

describe('the leak detector', () => {
  test('flags raw keys and unfilled placeholders, not addresses or file names', () => {
    expect(leaks(['✗ setup.verdict.bad_key', 'Step {n} of 7', 'hint.next'])).toEqual([
      'key setup.verdict.bad_key',
      'placeholder {n}',
      'key hint.next',
    ]);
    expect(
      leaks([
        'https://api.deepseek.com/v1 · /home/u/config.json · llama.cpp server · qwen2.5:latest',
        'approval in config.json, status: ok',
      ]),
    ).toEqual([]);
  });
});

describe('every wizard screen in both languages', () => {
  for (const lang of ['en', 'zh'] as const) {
    test(`${lang}: no raw key, no unfilled placeholder`, async () => {
      const h = await walkWizard(lang);
      const frames = h.frames();
      h.unmount();
      expect(h.outcomes).toEqual([
        { saved: true, answers: expect.objectContaining({ presetId: 'gguf' }) },
      ]);
      expect(leaks(frames)).toEqual([]);
      // Shorter than the 24-row terminal, so Ink never falls back to redrawing the screen.
      expect(Math.max(...frames.map((f) => f.split('\n').length))).toBeLessThan(24);
      const all = frames.join('\n');
      // Each kind of screen was really reached.
      for (const [en, zh] of [
        ['Looking for model servers', '正在查找'],
        ['Nothing matches', '没有与'],
        ['This service needs a key', '这个服务需要密钥'],
        ['Write the address with http://', '请填写以 http://'],
        ['Another model (type its name)', '其他模型'],
        ['Type a model name.', '请输入模型名称'],
        ['did not list its models', '没有列出模型'],
        ['rejected the API key.', '拒绝了这个 API 密钥'],
        ['could not be reached.', '无法连接到服务器'],
        ['does not know this model.', '不认识这个模型'],
        ['The test failed.', '测试失败'],
        ['Connected.', '连接成功'],
        ['more', '还有'],
        ['Could not save', '无法保存'],
        ['Type the path of a .gguf file.', '请输入 .gguf 文件的路径'],
        ['The model file cannot be used.', '这个模型文件无法使用'],
        ['The model file loads', '模型文件可以加载'],
        ['Model file', '模型文件'],
        ['Saving...', '正在保存'],
      ]) {
        expect(all, `${lang}: ${en}`).toContain(lang === 'en' ? en : zh);
      }
      // Every frame of the Chinese wizard is in Chinese.
      if (lang === 'zh') for (const f of frames.filter((x) => x.trim())) expect(f).toMatch(HAN);
    });
  }
});

describe('the main screens in both languages', () => {
  for (const lang of ['en', 'zh'] as const) {
    test(`${lang}: status bar, panes, help, approval, tool detail, notices`, async () => {
      const c = createFakeController({ machine: 'THINKING' });
      c.emit({ type: 'message_added', message: makeMessage('user', 'look around') });
      c.emit({
        type: 'message_added',
        message: makeMessage('assistant', 'Half a thought', { interrupted: true }),
      });
      c.emit({ type: 'request_start', turnId: 1, promptTokens: 50 });
      c.emit({ type: 'reasoning_delta', turnId: 1, text: 'thinking about the folder' });
      c.emit(replyUpdates()('Reading it now'));
      c.emit({ type: 'tool_end', entry: toolEntry({ callId: 'a' }) });
      c.emit({
        type: 'tool_end',
        entry: toolEntry({ callId: 'b', status: 'error', errorKind: 'not_found', summary: 'gone' }),
      });
      const h = await renderApp({ c, lang, rows: 30, approvalDelayMs: 0 });
      const frames: string[] = [];
      const grab = async (predicate: (f: string) => boolean): Promise<void> => {
        frames.push(await h.waitFor(predicate));
      };
      await grab((f) => f.includes('Reading it now'));
      h.press(KEY.f1);
      await grab((f) => f.includes(lang === 'en' ? 'Help: keys and commands' : '帮助'));
      h.press(KEY.esc);
      await grab((f) => !f.includes(lang === 'en' ? 'Help: keys' : '帮助：'));
      askApproval(c, { reason: 'destructive tools ask first' });
      await grab((f) => f.includes('delete("old.txt")'));
      h.press('n');
      await grab((f) => !f.includes('delete("old.txt")') || f.includes('⊘'));
      c.emit({
        type: 'message_added',
        message: makeMessage('assistant', 'Read it.', { reasoning: 'thinking about the folder' }),
      });
      c.move('PAUSE');
      await grab((f) => f.includes(lang === 'en' ? 'Paused' : '已暂停'));
      h.press(KEY.shiftTab);
      await grab((f) => f.includes('━━ ' + (lang === 'en' ? 'Tools' : '工具')));
      h.press(KEY.up, KEY.up); // the newest, then the one before
      await grab((f) => f.includes('1/2'));
      h.press(KEY.enter);
      await grab((f) => f.includes(lang === 'en' ? 'Arguments' : '参数'));
      h.press(KEY.esc);
      c.emit({ type: 'messages_replaced', messages: [] });
      await grab((f) => f.includes(lang === 'en' ? 'Nothing here yet' : '这里还没有内容'));
      const all = [...frames, ...h.frames()];
      h.unmount();
      expect(leaks(all)).toEqual([]);
      if (lang === 'zh') for (const f of frames) expect(f).toMatch(HAN);
    });
  }
});
