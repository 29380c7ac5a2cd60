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
 * Then the store itself is asked: each distinct shape that an index serves on paper is `explain()`ed once,
 * after the test that first sent it (test/support/query-shapes.ts `explainShapes`; the harness's root
 * `afterAll` closes the store before this file's runs), and a shape whose plan reads the whole collection
 * fails the run at its end, unless `EXPLAIN_ACCEPTED` names it with a reason. A store whose explain shows no plan is
 * noted and skipped (`QUERY_SHAPES_EXPLAIN=0` skips the step).
 *
 * test/integration/query-indexes.test.ts makes the same check on a flow of its own.
 */
import fs from 'node:fs';
import mongoose from 'mongoose';
import {
  EXPLAIN_ACCEPTED,
  captureQueries,
  checkShapes,
  explainShapes,
  type Capture,
  type ExplainVerdict,
} from './query-shapes';

let capture: Capture | undefined;
/** The explain verdicts so far, by shape key, and whether the store can explain. */
const plans = new Map<string, ExplainVerdict>();
const explainState: { unsupported?: string } = {};

export const mochaHooks = {
  beforeAll() {
    capture = captureQueries();
  },
  async afterEach() {
    const db = mongoose.connection.db;
    if (!capture || !db || process.env.QUERY_SHAPES_EXPLAIN === '0') return;
    const fresh = checkShapes(capture.shapes).filter((v) => !plans.has(v.key));
    for (const e of await explainShapes(fresh, db, explainState)) plans.set(e.key, e);
    // (a shape no index serves gets no plan; it is not asked again)
    for (const v of fresh) if (!plans.has(v.key)) plans.set(v.key, { key: v.key, plan: 'skipped', detail: '' });
  },
  async afterAll() {
    if (!capture) return;
    const verdicts = checkShapes(capture.stop());
    capture = undefined;
    const explained = [...plans.values()];
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
            explain: plans.get(key),
          })),
          null,
          1,
        ),
      );
    const skipped = explained.filter((e) => e.plan === 'skipped' && e.note?.startsWith("the store's"));
    if (skipped.length) console.log(`query shapes: explain() not checked (${skipped[0].note})`);
    const unserved = verdicts
      .filter((x) => !x.index && !x.accepted)
      .map((v) => `${v.key} (${v.reason}) from ${v.origins.join(', ')}`);
    const scanned = verdicts
      .filter((v) => plans.get(v.key)?.plan === 'scan' && !EXPLAIN_ACCEPTED[v.key])
      .map(
        (v) =>
          `${v.key} (index ${v.index}; the store's plan: ${plans.get(v.key)!.detail}) from ${v.origins.join(', ')}`,
      );
    const errors = [
      ...(unserved.length
        ? [`queries no declared index serves (test/support/query-shapes.ts):\n${unserved.join('\n')}`]
        : []),
      ...(scanned.length
        ? [`queries the store answers by reading the collection (explain):\n${scanned.join('\n')}`]
        : []),
    ];
    if (errors.length) throw new Error(errors.join('\n'));
  },
};
