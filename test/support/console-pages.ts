/**
 * Pages of the staff console for the browser tests (issue 35, "Proof"): fresh browser contexts that record
 * page errors and dialogs, sign-in through the form, and one sign-in per user per test file (sign-in is
 * rate-limited per email, src/api/console.ts), its cookies reused by the next pages of that user.
 */
import { expect } from 'chai';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { config, setConfig } from '../../src/config';
import { createUser } from '../../src/services/users';
import { launchChromium } from './browser';
import { h, newTenant, request } from './harness';

type StorageState = Awaited<ReturnType<BrowserContext['storageState']>>;

/** A page and what went wrong on it (`pageerror: …`, `dialog: …`): tests expect the list empty. */
export interface ConsolePage {
  page: Page;
  problems: string[];
}

/**
 * Console pages in `browser()` (launched in a `before`), users signing in with `password`. Called inside a
 * `describe`, it turns the per-IP sign-in limit off for that block (every browser signs in from 127.0.0.1,
 * and the limit's window is shared with the other test files); the limit is tested in console-api.test.ts.
 */
export function consolePages(browser: () => Browser, password: string) {
  const states = new Map<string, StorageState>();
  let perIp = 0;
  before(() => {
    perIp = config().consoleSigninPerIp;
    setConfig({ ...config(), consoleSigninPerIp: 0 });
  });
  after(() => setConfig({ ...config(), consoleSigninPerIp: perIp }));

  /** A fresh page (own cookies) `width` px wide, recording page errors and dismissing dialogs. */
  async function newPage(width = 1440, storageState?: StorageState): Promise<ConsolePage> {
    const context = await browser().newContext({ viewport: { width, height: 900 }, storageState });
    const page = await context.newPage();
    const problems: string[] = [];
    page.on('pageerror', (e) => problems.push(`pageerror: ${String(e)}`));
    page.on('dialog', (d) => {
      problems.push(`dialog: ${d.message()}`);
      void d.dismiss();
    });
    return { page, problems };
  }

  /** Signs in through the form at `/console`; resolves once the header shows the organization. */
  async function signIn(page: Page, email: string): Promise<void> {
    await page.goto(`${h().api.url}/console`);
    await page.fill('#email', email);
    await page.fill('#password', password);
    await page.click('button[type=submit]');
    await page.waitForSelector('[data-testid=org-name]');
  }

  /** A new context signed in as `email` (the first call signs in, the next reuse its cookies), at `/console`. */
  async function signedInPage(email: string, width = 1440): Promise<ConsolePage> {
    if (!states.has(email)) {
      const { page } = await newPage();
      await signIn(page, email);
      states.set(email, await page.context().storageState());
      await page.context().close();
    }
    const opened = await newPage(width, states.get(email));
    await opened.page.goto(`${h().api.url}/console`);
    await opened.page.waitForSelector('[data-testid=org-name]');
    return opened;
  }

  return { newPage, signIn, signedInPage };
}

/**
 * A test file's console as an organization's admin sees it. Called inside a `describe`: a `before` launches
 * Chromium, makes a tenant (`newTenant(agent)`: its agent's fields) and an admin user of it signing in
 * with a fixed password, an `after` closes the browser. Answers `consolePages`' functions, the `state`
 * made by the `before` (`browser`, `tenant`, `admin`), and `post`: a POST with the tenant's test key,
 * expected to answer 200, resolving with the body.
 */
export function consoleAdmin(agent: Record<string, unknown> = {}) {
  const password = 'correct horse battery staple';
  const state = {} as { browser: Browser; tenant: Awaited<ReturnType<typeof newTenant>>; admin: { email: string } };
  before(async () => {
    state.browser = await launchChromium();
    state.tenant = await newTenant(agent);
    const email = `admin-${Math.random().toString(36).slice(2, 8)}@example.com`;
    state.admin = await createUser({ orgId: state.tenant.orgId, email, role: 'admin', password });
  });
  after(async () => {
    await state.browser?.close();
  });
  const post = async (path: string, body: unknown) => {
    const res = await request('POST', path, { key: state.tenant.testKey, body });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    return res.body;
  };
  return { ...consolePages(() => state.browser, password), state, post };
}
