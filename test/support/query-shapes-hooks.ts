/**
 * Optional mocha root hooks that record the query shapes of a whole test run and write, after it, every
 * distinct shape with the index that serves it (or why none does) to `QUERY_SHAPES_OUT` (JSON), and the
 * ones no index serves to stderr. Loaded after the harness's hooks:
 *
 *   QUERY_SHAPES_OUT=/tmp/shapes.json npm run test:files -- --require dist/test/support/query-shapes-hooks.js \
 *     dist/test/integration/calls.test.js …
 *
 * test/integration/query-indexes.test.ts makes the same check on a flow of its own.
 */
import fs from 'node:fs';
import { captureQueries, checkShapes, type Capture } from './query-shapes';

let capture: Capture | undefined;

export const mochaHooks = {
  beforeAll() {
    capture = captureQueries();
  },
  afterAll() {
    if (!capture) return;
    const verdicts = checkShapes(capture.stop());
    capture = undefined;
    const out = process.env.QUERY_SHAPES_OUT;
    if (out)
      fs.writeFileSync(
        out,
        JSON.stringify(
          verdicts.map(({ key, index, reason, accepted, origins, count }) => ({
            key,
            index,
            reason,
            accepted,
            origins,
            count,
          })),
          null,
          1,
        ),
      );
    for (const v of verdicts.filter((x) => !x.index && !x.accepted))
      process.stderr.write(`no index: ${v.key} (${v.reason}) from ${v.origins.join(', ')}\n`);
  },
};
