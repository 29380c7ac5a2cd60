// ESLint (flat config) with typescript-eslint: the rules that keep the architecture honest (DESIGN.md
// section 8): workflows stay deterministic and bundle-safe, the API never loads activities or workflows,
// src/shared imports nothing of the project, the root files of src import no layer above them, the layers below (services, providers, platform, voice,
// models) never import upward, no activity module imports another; and no promise is left floating.
// test/unit/layers.test.ts plants wrong imports to show each rule bites.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

/** The folders of src that are a process's top: nothing below them imports them. */
const TOPS = ['api', 'activities', 'workflows', 'worker', 'dev', 'cli'];

/**
 * The import rule of a layer below the tops: `src/<dir>` imports none of TOPS and none of `banned` (sibling
 * folders of src), by a relative path (`../api/app`, `../../services/calls`).
 */
function layer(dir, banned, message) {
  return {
    files: [`${dir}/**/*.ts`],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: `^(\\.\\./)+(${TOPS.join('|')})(/|$)`,
              message: `${dir} sits below the API, the activities and workflows (and worker, dev, cli).`,
            },
            { regex: `^(\\.\\./)+(${banned.join('|')})(/|$)`, message },
          ],
        },
      ],
    },
  };
}

export default tseslint.config(
  {
    ignores: [
      'dist/**',
      'node_modules/**',
      '.data/**',
      '**/*.js',
      '**/*.mjs',
      'sdk/typescript/src/generated/**',
      // Compiled against the installed package (and one of them wrong on purpose) by test/integration/sdk-typescript.test.ts.
      'sdk/typescript/examples/**',
      'sdk/python/**',
    ],
  },
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
              regex: '^(?!@temporalio/(workflow|common)$|zod$|\\./|\\.\\./shared/|\\.\\./activities/)',
              message:
                'Workflows import only @temporalio/workflow, @temporalio/common, zod, src/shared and types of one activity module per proxy (not the index).',
            },
            {
              regex: '^\\.\\./activities/',
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
              regex: '^(\\.\\./)+(activities|workflows|worker|dev|cli)(/|$)',
              message:
                'The API never imports activities, workflows, the worker, dev or cli: start workflows by name, typed by src/shared.',
            },
          ],
        },
      ],
    },
  },
  // The node-side layers below the API and the activities (README "Architecture"): services (domain rules)
  // → providers (outside-world clients), platform (Temporal, metrics, rate limits, calendar), voice →
  // models → shared, config. None of them loads a process's top (api, activities, workflows, worker, dev,
  // cli); each rule below forbids every folder the layer does not import today.
  layer('src/services', ['voice'], 'Services (domain rules) use providers, platform and models, not voice.'),
  layer(
    'src/providers',
    ['services', 'voice', 'models'],
    'Providers are clients of the outside world: config and src/shared only, no domain code.',
  ),
  layer('src/platform', ['services', 'providers', 'voice'], 'Platform code knows no domain services or providers.'),
  layer(
    'src/voice',
    ['services', 'providers'],
    'Voice processing uses models and platform, not services or providers.',
  ),
  layer(
    'src/models',
    ['services', 'providers', 'platform', 'voice'],
    'Models import only src/shared, config and each other (./store).',
  ),
  {
    // The root files of src (config, errors, keys, logger, redaction, secrets) are the bottom of the node
    // side: every layer uses them, so they import only each other, src/models and src/shared.
    files: ['src/*.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: `^\\./(${[...TOPS, 'services', 'providers', 'platform', 'voice'].join('|')})(/|$)`,
              message:
                'The root files of src are the bottom layer: they import each other, src/models and src/shared only.',
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
              regex: `^(\\.\\./)+(${TOPS.filter((d) => d !== 'activities').join('|')})(/|$)`,
              message: 'Activities never import the API, workflows, the worker, dev or cli.',
            },
            {
              regex: '^\\./',
              message:
                'An activity module never imports another: move what they share to src/services or src/providers.',
            },
          ],
        },
      ],
    },
  },
  {
    // The worker's list of every activity: the one module in src/activities that imports its siblings.
    files: ['src/activities/index.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: `^(\\.\\./)+(${TOPS.filter((d) => d !== 'activities').join('|')})(/|$)`,
              message: 'Activities never import the API, workflows, the worker, dev or cli.',
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
