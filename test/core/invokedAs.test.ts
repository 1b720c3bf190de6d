/** The command hints name: as the user ran Cogito (issue 33.6: a clone has no `cogito`). */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { invokedAs } from '../../src/core/invokedAs.js';

describe('invokedAs', () => {
  it('installed (npm linked a cogito script, or npx ran the package): cogito', () => {
    expect(invokedAs({ argv: ['node', '/usr/local/bin/cogito'], env: {} })).toBe('cogito');
    expect(
      invokedAs({ argv: ['node', '/x/node_modules/cogito/bin/cogito.js'], env: {}, cwd: '/' }),
    ).toBe('cogito');
  });

  it('npm start in a clone: npm start --', () => {
    const env = { npm_lifecycle_event: 'start', npm_package_name: 'cogito' };
    expect(invokedAs({ argv: ['node', '/src/cogito/bin/cogito.js'], env })).toBe('npm start --');
  });

  it('node bin/cogito.js: that path, relative inside the folder, absolute outside it', () => {
    const script = path.join('/src/cogito', 'bin', 'cogito.js');
    expect(invokedAs({ argv: ['node', script], env: {}, cwd: '/src/cogito' })).toBe(
      'node bin/cogito.js',
    );
    expect(invokedAs({ argv: ['node', script], env: {}, cwd: '/elsewhere' })).toBe(
      `node ${script}`,
    );
    expect(invokedAs({ argv: ['node', '/my src/bin/cogito.js'], env: {}, cwd: '/tmp' })).toBe(
      'node "/my src/bin/cogito.js"',
    );
  });
});
