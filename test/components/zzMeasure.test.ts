import { test } from 'vitest';
import { createRequire } from 'node:module';
import { blockRows, type Block } from '../../components/panes/conversation.js';
import { LiveRows } from '../../components/panes/liveRows.js';
import { makeMessage } from '../../src/core/messages.js';
import { withParts } from '../../src/protocol/replyParts.js';
import { StreamingParts } from '../../src/protocol/streamingParts.js';
import { mulberry32 } from '../helpers/rng.js';
const spec = createRequire(import.meta.url)('commonmark-spec') as { tests: { markdown: string; number: number }[] };
test('measure', () => {
  const width = 60;
  const res: Record<string, number[]> = { charLive: [], charAdopt: [], rndLive: [], rndAdopt: [], partsChar: [] };
  for (const ex of spec.tests) {
    const text = ex.markdown;
    const message = withParts(makeMessage('assistant', text));
    const saved: Block = { kind: 'message', key: message.id, message };
    const final = JSON.stringify(blockRows(saved, width, 'en'));
    for (const mode of ['char', 'rnd'] as const) {
      const rng = mulberry32(ex.number);
      const reader = new StreamingParts();
      const live = new LiveRows();
      let end = 0;
      let last: unknown;
      let parts;
      while (end < text.length) {
        end = Math.min(text.length, end + (mode === 'char' ? 1 : 1 + Math.floor(rng() * 6)));
        parts = reader.read(text.slice(0, end));
        last = live.rows(text.slice(0, end), parts, width, 'en', true);
      }
      const lastLive = JSON.stringify(live.rows(text, parts!, width, 'en', false));
      if (mode === 'char' && JSON.stringify(parts!.items.map((p) => p.type === 'text' ? p.text : p.raw)) !== JSON.stringify(message.parts!.items.map((p) => p.type === 'text' ? p.text : p.raw))) res.partsChar!.push(ex.number);
      if (lastLive !== final) res[mode + 'Live']!.push(ex.number);
      const adopted = JSON.stringify(blockRows(saved, width, 'en', live.adopt(text, width)));
      if (adopted !== final) res[mode + 'Adopt']!.push(ex.number);
      void last;
    }
  }
  console.log(JSON.stringify(Object.fromEntries(Object.entries(res).map(([k, v]) => [k, [v.length, v.join(',')]])), null, 1));
});
