/**
 * The layers' import rules in eslint.config.mjs bite: a planted wrong import in a file of each layer fails
 * `@typescript-eslint/no-restricted-imports`, and a correct one passes. One ESLint instance over the
 * project's own config, with only that rule and without type information (the planted files do not
 * exist, so the TypeScript project service cannot know them).
 */
import path from 'node:path';
import { expect } from 'chai';
import { ESLint } from 'eslint';

const RULE = '@typescript-eslint/no-restricted-imports';

describe('layers (eslint.config.mjs)', () => {
  const eslint = new ESLint({
    cwd: path.resolve(__dirname, '../../..'),
    overrideConfig: { languageOptions: { parserOptions: { projectService: false } } },
    ruleFilter: ({ ruleId }) => ruleId === RULE,
  });

  /** The messages of the import rule for `code` linted as the file `filePath` (relative to the project). */
  async function importErrors(filePath: string, code: string): Promise<string[]> {
    const [result] = await eslint.lintText(code, { filePath });
    const fatal = result.messages.filter((m) => m.fatal);
    expect(fatal, 'the planted file parses').to.deep.equal([]);
    return result.messages.filter((m) => m.ruleId === RULE).map((m) => m.message);
  }

  const wrong: [string, string, string, RegExp][] = [
    [
      'an activity importing another activity',
      'src/activities/planted.ts',
      "import { generateReply } from './llm';\nexport const x = generateReply;\n",
      /never imports another/,
    ],
    [
      'a service importing an activity',
      'src/services/planted.ts',
      "import { sendMessage } from '../activities/messaging';\nexport const x = sendMessage;\n",
      /below the API, the activities/,
    ],
    [
      'a provider importing a service',
      'src/providers/planted.ts',
      "import { emitEvent } from '../services/events';\nexport const x = emitEvent;\n",
      /no domain code/,
    ],
    [
      'platform code importing a provider',
      'src/platform/planted.ts',
      "import { openai } from '../providers/openai';\nexport const x = openai;\n",
      /knows no domain services or providers/,
    ],
    [
      'a model importing a service',
      'src/models/planted.ts',
      "import { emitEvent } from '../services/events';\nexport const x = emitEvent;\n",
      /Models import only/,
    ],
    [
      'the API importing a workflow',
      'src/api/planted.ts',
      "import { callWorkflow } from '../workflows/calls';\nexport const x = callWorkflow;\n",
      /The API never imports/,
    ],
    [
      'a workflow importing a service at runtime',
      'src/workflows/planted.ts',
      "import { newCallInput } from '../services/calls';\nexport const x = newCallInput;\n",
      /Workflows import only/,
    ],
    [
      'a workflow proxy typed by the whole activity index',
      'src/workflows/planted.ts',
      "import type * as activities from '../activities';\nexport type X = typeof activities;\n",
      /Workflows import only/,
    ],
    [
      'a root file of src importing a service',
      'src/planted.ts',
      "import { emitEvent } from './services/events';\nexport const x = emitEvent;\n",
      /root files of src are the bottom layer/,
    ],
    [
      'a root file of src importing platform code',
      'src/planted.ts',
      "import { writeWhenStored } from './platform/store-outage';\nexport const x = writeWhenStored;\n",
      /root files of src are the bottom layer/,
    ],
  ];
  for (const [what, filePath, code, message] of wrong) {
    it(`fails ${what}`, async () => {
      const errors = await importErrors(filePath, code);
      expect(errors).to.have.length.greaterThan(0);
      expect(errors.join('\n')).to.match(message);
    });
  }

  it('passes imports that follow the arrows', async () => {
    const planted: [string, string][] = [
      [
        'src/activities/planted.ts',
        "import { openai } from '../providers/openai';\nimport { emitEvent } from '../services/events';\nexport const x = [openai, emitEvent];\n",
      ],
      ['src/activities/index.ts', "export { generateReply } from './llm';\n"],
      ['src/services/planted.ts', "import { Call } from '../models/calls';\nexport const x = Call;\n"],
      ['src/workflows/planted.ts', "import type * as llm from '../activities/llm';\nexport type X = typeof llm;\n"],
      [
        'src/planted.ts',
        "import { redactText } from './redaction';\nimport { Org } from './models/orgs';\nexport const x = [redactText, Org];\n",
      ],
    ];
    for (const [filePath, code] of planted) expect(await importErrors(filePath, code), filePath).to.deep.equal([]);
  });
});
