/**
 * The console's settings page in a real browser: an admin sets the mode's retention days and turns PII
 * redaction on (`POST /v1/account`, checked through the API and after a reload), a value the API refuses
 * shows the API's message and changes nothing; a viewer sees the same settings read-only, with no form,
 * and the API refuses a viewer's write made from the page. Shared page helpers: test/support/console-pages.ts.
 */
import { expect } from 'chai';
import type { Browser } from 'playwright-core';
import { createUser } from '../../src/services/users';
import { launchChromium } from '../support/browser';
import { consolePages } from '../support/console-pages';
import { newTenant, request } from '../support/harness';

type Tenant = Awaited<ReturnType<typeof newTenant>>;

describe('staff console settings in a browser', function () {
  this.timeout(120_000);
  let browser: Browser;
  let t: Tenant;
  const password = 'correct horse battery staple';
  let admin: { email: string };
  let viewer: { email: string };
  const { signedInPage } = consolePages(() => browser, password);

  before(async () => {
    browser = await launchChromium();
    t = await newTenant();
    const tag = Math.random().toString(36).slice(2, 8);
    admin = await createUser({ orgId: t.orgId, email: `sa-${tag}@example.com`, role: 'admin', password });
    viewer = await createUser({ orgId: t.orgId, email: `sv-${tag}@example.com`, role: 'viewer', password });
  });

  after(async () => {
    await browser?.close();
  });

  /** The test mode's account as the API answers it. */
  const account = async () => (await request('GET', '/v1/account', { key: t.testKey })).body;

  it('an admin sets retention days and redaction; stored through the API and shown again after a reload', async () => {
    const { page, problems } = await signedInPage(admin.email);
    await page.click('nav a[href="/console/settings"]');
    await page.waitForSelector('#retention-transcripts_days');
    expect(await page.inputValue('#retention-transcripts_days'), 'kept for ever: empty').to.equal('');
    expect(await page.isChecked('#redaction-enabled')).to.equal(false);

    await page.fill('#retention-transcripts_days', '30');
    await page.fill('#retention-messages_days', '90');
    await page.check('#redaction-enabled');
    await page.click('button:has-text("Save settings")');
    await page.waitForSelector('[data-testid=settings-saved]');
    const stored = await account();
    expect(stored.retention).to.deep.equal({
      transcripts_days: 30,
      messages_days: 90,
      recordings_days: null,
      analyses_days: null,
      events_days: null,
    });
    expect(stored.redaction).to.deep.equal({ enabled: true });

    await page.reload();
    await page.waitForSelector('#retention-transcripts_days');
    expect(await page.inputValue('#retention-transcripts_days')).to.equal('30');
    expect(await page.inputValue('#retention-messages_days')).to.equal('90');
    expect(await page.inputValue('#retention-events_days')).to.equal('');
    expect(await page.isChecked('#redaction-enabled')).to.equal(true);

    // Days outside 1–3,650: the API's 400 message, naming the field, and nothing stored.
    await page.fill('#retention-events_days', '4000');
    await page.click('button:has-text("Save settings")');
    const alert = await page.waitForSelector('main [role=alert]');
    expect(await alert.textContent()).to.contain('retention.events_days');
    expect((await account()).retention).to.deep.equal(stored.retention);
    // Emptied: kept for ever again.
    await page.fill('#retention-events_days', '');
    await page.fill('#retention-messages_days', '');
    await page.click('button:has-text("Save settings")');
    await page.waitForFunction(() => (globalThis as any).document.querySelector('main [role=alert]') === null, null, {
      timeout: 10_000,
    });
    await page.waitForSelector('[data-testid=settings-saved]');
    expect((await account()).retention).to.include({ transcripts_days: 30, messages_days: null, events_days: null });
    expect(problems).to.deep.equal([]);
    await page.context().close();
  });

  it('a viewer sees the settings read-only, and the API refuses a write from the page', async () => {
    await request('POST', '/v1/account', {
      key: t.testKey,
      body: { retention: { recordings_days: 7 }, redaction: { enabled: true } },
    });
    const { page, problems } = await signedInPage(viewer.email);
    await page.click('nav a[href="/console/settings"]');
    await page.waitForSelector('[data-testid=retention-recordings_days]');
    expect(await page.textContent('[data-testid=retention-recordings_days]')).to.equal('7 days');
    expect(await page.textContent('[data-testid=retention-analyses_days]')).to.equal('Kept for ever');
    expect(await page.textContent('[data-testid=redaction-enabled]')).to.equal('On');
    expect(await page.$$('main input'), 'no form').to.have.length(0);
    expect(await page.$$('button:has-text("Save settings")')).to.have.length(0);
    expect(await page.textContent('main')).to.contain('Only admins change these settings.');

    const refused = await page.evaluate(async () => {
      const session = (await (await fetch('/console/api/session')).json()) as any;
      const res = await fetch('/v1/account', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'X-CSRF-Token': session.csrf_token },
        body: JSON.stringify({ retention: { recordings_days: 1 } }),
      });
      return { status: res.status, body: (await res.json()) as any };
    });
    expect(refused.status).to.equal(403);
    expect(refused.body.error.code).to.equal('scope_missing');
    expect((await account()).retention.recordings_days).to.equal(7);
    expect(problems).to.deep.equal([]);
    await page.context().close();
  });
});
