/**
 * Mocha root hooks that record the query shapes of a whole test run and check each against the indexes
 * the models declare (test/support/query-shapes.ts): after the run, a shape that no index serves and that
 * is not accepted by design (`ACCEPTED_SHAPES`) fails the run, naming the line of src/ that sent it, so a
 * new query without its index is caught by `npm test` (.mocharc.json requires this file after the
 * harness's hooks) whatever test drives it: retention, erasure, test suites, the console…
 *
 * `QUERY_SHAPES_OUT=<file>` also writes every distinct shape with the index that serves it (or why none
 * does) as JSON. A subset of the tests gets the same check with
 *
 *   npm run test:files -- --require dist/test/support/query-shapes-hooks.js dist/test/integration/calls.test.js …
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
    const unserved = verdicts
      .filter((x) => !x.index && !x.accepted)
      .map((v) => `${v.key} (${v.reason}) from ${v.origins.join(', ')}`);
    if (unserved.length)
      throw new Error(`queries no declared index serves (test/support/query-shapes.ts):\n${unserved.join('\n')}`);
  },
};
