// Flat config. The project-specific rules: the headless core (src/) must never import
// React, Ink or the UI in components/, so it can run in --print mode and in tests; and the
// UI's hooks follow React's rules (called unconditionally, effects list what they read);
// and no product file over 400 lines or function over 80.
import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['node_modules/**', 'data/**', 'bench/results/**', 'coverage/**', 'dist/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
      '@typescript-eslint/consistent-type-imports': 'error',
    },
  },
  {
    files: ['src/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [
            { name: 'react', message: 'src/ is the headless core: no React.' },
            { name: 'ink', message: 'src/ is the headless core: no Ink.' },
          ],
          patterns: [
            {
              group: ['**/components/**', '../components', '../../components'],
              message: 'src/ must not import components/.',
            },
            {
              group: ['ink-*', 'react/*', 'react-*'],
              message: 'src/ is the headless core: no UI packages.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['components/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'error',
    },
  },
  // Size limits (issue #13): no file over 400 lines and no function over 80 in the
  // product code; the message tables and the key table are data, exempt.
  {
    files: ['src/**/*.ts', 'components/**/*.{ts,tsx}'],
    ignores: ['src/i18n/en.ts', 'src/i18n/zh.ts', 'components/keys/bindings.ts'],
    rules: {
      'max-lines': ['error', { max: 400 }],
      'max-lines-per-function': ['error', { max: 80 }],
    },
  },
);
