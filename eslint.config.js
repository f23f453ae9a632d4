// One lint setup for every workspace.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';
import reactHooks from 'eslint-plugin-react-hooks';

export default tseslint.config(
  { ignores: ['**/node_modules/**', '**/dist/**', '.tsbuild/**', '**/dev-dist/**', 'data/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
      'no-console': 'off',
    },
  },
  {
    // The PWA: rules of hooks, and every zustand import goes through pwa/src/stores.
    files: ['pwa/src/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'error',
      'no-restricted-imports': [
        'error',
        { paths: [{ name: 'zustand', message: 'Use the stores in pwa/src/stores.' }] },
      ],
    },
  },
  { files: ['pwa/src/stores/**'], rules: { 'no-restricted-imports': 'off' } },
  { files: ['pwa/src/sw.ts'], languageOptions: { globals: globals.serviceworker } },
  {
    // Plain CommonJS scripts that must run on any Node without a loader.
    files: ['**/*.cjs'],
    languageOptions: { sourceType: 'commonjs' },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  {
    files: ['**/*.test.ts', '**/*.test.tsx', '**/test/**'],
    rules: {
      '@typescript-eslint/no-explicit-any': 'off',
      'no-restricted-syntax': [
        'error',
        { selector: "MemberExpression[property.name='only']", message: 'No focused tests.' },
      ],
    },
  },
);
