// ESLint (flat config) with typescript-eslint: the type-aware rules that catch what the compiler
// does not (a promise nobody awaits, an async function where a callback must be sync, `await` on
// a non-promise), plus unused code and type-only imports. See docs/architecture.md. Formatting is
// Prettier's business, so no stylistic rule is enabled here.
import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  // The packages' generated types are the generator's: neither linted nor formatted.
  { ignores: ['dist/**', 'packages/*/dist/**', 'packages/sdk/src/openapi.ts', 'node_modules/**', 'coverage/**'] },
  js.configs.recommended,
  {
    files: ['**/*.ts'],
    extends: [...tseslint.configs.recommendedTypeChecked],
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      // node:test's test() and describe() return promises the runner itself awaits.
      '@typescript-eslint/no-floating-promises': [
        'error',
        {
          allowForKnownSafeCalls: [
            {
              from: 'package',
              package: 'node:test',
              name: ['test', 'describe', 'it', 'suite', 'before', 'after', 'beforeEach', 'afterEach'],
            },
          ],
        },
      ],
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/await-thenable': 'error',
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      // An async method that awaits nothing still turns a throw into a rejection, which callers of
      // the Promise-returning ports rely on; the rule would push those to hand-made promises.
      '@typescript-eslint/require-await': 'off',
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none', ignoreRestSiblings: true },
      ],
    },
  },
  {
    // Tests read JSON answers as `any` on purpose (one `Json = any` alias per suite, its disable
    // comment kept): the assertions check their shape, so the no-unsafe-* family would only
    // flag every property read of an answer. no-explicit-any still guards each new `any`.
    files: ['test/**/*.ts'],
    rules: {
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
    },
  },
  {
    // A function a reader can hold: route modules register named handlers, not long closures
    // (docs/design/web.md, "Shape"). Every line counts, comments and blank lines too: what has to
    // fit a screen is the function as it reads. A data table may say so on its line:
    // `// eslint-disable-next-line max-lines-per-function -- data table`.
    files: ['src/**/*.ts'],
    ignores: [
      'src/**/*.test.ts',
      // Temporary: being split in parallel (issue 49, step 6); each entry goes as its split lands.
      'src/adapters/clicks/postgres/pg-click-arrays.ts',
    ],
    rules: { 'max-lines-per-function': ['error', { max: 80, skipBlankLines: false, skipComments: false }] },
  },
  {
    files: ['**/*.js', '**/*.mjs', '**/*.cjs'],
    languageOptions: { globals: { ...globals.node } },
  },
  {
    // The web app's script runs in browsers.
    files: ['src/adapters/web/ui/assets/**/*.js'],
    languageOptions: { globals: { ...globals.browser } },
  },
  { linterOptions: { reportUnusedDisableDirectives: 'error' } },
);
