/**
 * Mocha root hooks: start the harness (real Temporal dev server, real FerretDB, worker, API, fake LLM)
 * once before all tests and stop it after. The first run on a machine may build the Go servers. Every
 * answer of the service a test receives is checked against the OpenAPI document
 * (test/support/response-schemas.ts; `SVC_VALIDATE_RESPONSES=0` turns it off).
 */
import { h, startHarness, stopHarness } from './harness';
import { installResponseValidation, responseChecks, responseChecksSummary } from './response-schemas';

export const mochaHooks = {
  async beforeAll(this: Mocha.Context) {
    this.timeout(15 * 60 * 1000);
    installResponseValidation(() => {
      try {
        return new URL(h().api.url).origin;
      } catch {
        return undefined;
      }
    });
    await startHarness();
  },
  beforeEach(this: Mocha.Context) {
    responseChecks.currentTest = this.currentTest?.fullTitle() ?? '';
  },
  async afterAll(this: Mocha.Context) {
    this.timeout(120_000);
    if (process.env.SVC_VALIDATE_RESPONSES !== '0') {
      console.log(`\n  ${responseChecksSummary()}`);
      for (const [path, n] of responseChecks.undocumented) console.log(`    undocumented: ${path} (${n})`);
      for (const m of responseChecks.mismatches) console.log(`    mismatch: ${m}`);
    }
    await stopHarness();
  },
};
