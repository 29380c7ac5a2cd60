// ESLint (flat config) with typescript-eslint: the rules that keep the architecture honest (DESIGN.md
// section 8): workflows stay deterministic and bundle-safe, the API never loads activities or workflows,
// src/shared imports nothing of the project; and no promise is left floating.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', '.data/**', '**/*.js', '**/*.mjs'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts'],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: false }],
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' },
      ],
      '@typescript-eslint/no-non-null-assertion': 'off',
      '@typescript-eslint/no-explicit-any': 'error',
    },
  },
  {
    // Workflow code runs in Temporal's deterministic sandbox (webpack bundle): only the workflow SDK,
    // zod (deterministic: tools' argument schemas), src/shared, sibling workflow files, and types of the
    // activities.
    files: ['src/workflows/**/*.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '^(?!@temporalio/(workflow|common)$|zod$|\\./|\\.\\./shared/|\\.\\./activities(/|$))',
              message:
                'Workflows import only @temporalio/workflow, @temporalio/common, zod, src/shared and types of activities.',
            },
            {
              regex: '^\\.\\./activities(/|$)',
              allowTypeImports: true,
              message: 'Workflows import activities as types only (proxyActivities).',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['src/shared/**/*.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '^(?!@temporalio/(workflow|common)$|zod$|\\./)',
              message:
                'src/shared is bundle-safe: it imports @temporalio/workflow, @temporalio/common, zod and nothing of the project outside src/shared.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['src/api/**/*.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/activities', '**/activities/*', '**/workflows', '**/workflows/*'],
              message: 'The API never imports activities or workflows: start workflows by name, typed by src/shared.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['src/models/**/*.ts', 'src/lib/**/*.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: [
                '**/api',
                '**/api/*',
                '**/activities',
                '**/activities/*',
                '**/workflows',
                '**/workflows/*',
                '**/worker/*',
                '**/dev/*',
              ],
              message: 'Models and lib sit below the API and the activities.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['src/activities/**/*.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/api', '**/api/*', '**/workflows', '**/workflows/*'],
              message: 'Activities never import the API or workflows.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['test/**/*.ts', 'bench/**/*.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off', '@typescript-eslint/no-unused-expressions': 'off' },
  },
);
