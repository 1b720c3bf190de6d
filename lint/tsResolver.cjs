// An import resolver for eslint-plugin-boundaries: the source imports TypeScript files by
// their emitted name (`./agent.js` is agent.ts, NodeNext style), which the node resolver
// cannot find; an unresolved import is never checked, so every layer rule would pass.
// CommonJS, because eslint-module-utils require()s its resolvers (Node 20.18 cannot require ESM).
/* global require, exports */
/* eslint-disable @typescript-eslint/no-require-imports */
const fs = require('node:fs');
const path = require('node:path');

const isFile = (p) => fs.existsSync(p) && fs.statSync(p).isFile();

exports.interfaceVersion = 2;
exports.resolve = function resolve(source, file) {
  if (!source.startsWith('.')) return { found: false };
  const target = path.resolve(path.dirname(file), source);
  const stem = target.replace(/\.(js|jsx|mjs)$/, '');
  const found = [target, `${stem}.ts`, `${stem}.tsx`, path.join(target, 'index.ts')].find(isFile);
  return found === undefined ? { found: false } : { found: true, path: found };
};
