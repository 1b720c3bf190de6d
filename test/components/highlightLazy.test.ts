import { expect, test } from 'vitest';
import { codeLines } from '../../components/markdown/codeBlock.js';
import { highlighter, highlighterReady } from '../../components/markdown/highlightLoad.js';

// A screen that never shows code never loads highlight.js (idle memory, issue 41); the
// first code block starts the load, and once it is ready the same block comes back coloured.
test('the first code block loads the highlighter; until then the code is plain', async () => {
  expect(highlighter()).toBeUndefined();
  const plain = codeLines('const x = 1;', 'ts');
  expect(plain).toEqual([[{ text: 'const x = 1;' }]]);
  await highlighterReady();
  expect(highlighter()).toBeDefined();
  const coloured = codeLines('const x = 1;', 'ts');
  expect(coloured[0]!.some((span) => span.style !== undefined)).toBe(true);
});
