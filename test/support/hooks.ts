/**
 * Mocha root hooks: start the harness (real Temporal dev server, real FerretDB, worker, API, fake LLM)
 * once before all tests and stop it after. The first run on a machine may build the Go servers.
 */
import { startHarness, stopHarness } from './harness';

export const mochaHooks = {
  async beforeAll(this: Mocha.Context) {
    this.timeout(15 * 60 * 1000);
    await startHarness();
  },
  async afterAll(this: Mocha.Context) {
    this.timeout(120_000);
    await stopHarness();
  },
};
