/**
 * Mocha's spec reporter plus, at the end, one line per failed test or hook naming its compiled file
 * (`failed: dist/test/…test.js › full title`), then one closing line in the plain form that CI reads in any
 * language: `N passed, N failed, N skipped`. scripts/test-shards.mjs prints every shard's failures again
 * after the totals, so that a log cut to its last lines still names what failed.
 */
import path from 'node:path';
import Mocha from 'mocha';

class SpecWithSummary extends Mocha.reporters.Spec {
  private readonly failed: string[] = [];

  constructor(runner: Mocha.Runner, options?: Mocha.MochaOptions) {
    super(runner, options);
    runner.on(Mocha.Runner.constants.EVENT_TEST_FAIL, (test: Mocha.Runnable) => {
      const file = test.file ? path.relative(process.cwd(), test.file) : '(no file)';
      this.failed.push(`failed: ${file} › ${test.fullTitle()}`);
    });
  }

  override epilogue(): void {
    super.epilogue();
    for (const line of this.failed) console.log(line);
    const s = this.stats;
    console.log(`${s.passes} passed, ${s.failures} failed, ${s.pending} skipped`);
  }
}

export = SpecWithSummary;
