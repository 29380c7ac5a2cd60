/**
 * Mocha's spec reporter plus one closing line in the plain form that CI reads in any language:
 * `N passed, N failed, N skipped`.
 */
import Mocha from 'mocha';

class SpecWithSummary extends Mocha.reporters.Spec {
  override epilogue(): void {
    super.epilogue();
    const s = this.stats;
    console.log(`${s.passes} passed, ${s.failures} failed, ${s.pending} skipped`);
  }
}

export = SpecWithSummary;
