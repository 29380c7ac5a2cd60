/**
 * A recording's signed link in a real browser: Debian's Chromium (installed by
 * scripts/install-chromium.sh when missing) driven by `playwright-core` plays the link in an `<audio>`
 * element and seeks in it, which needs the API's `Range` answers (206) and `Accept-Ranges`.
 */
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { expect } from 'chai';
import { chromium, type Browser } from 'playwright-core';
import { config, setConfig, type Config } from '../../src/config';
import { h, newTenant, request, waitForCall } from '../support/harness';
import { eventually } from '../support/webhooks';

describe('recording link in a browser', function () {
  this.timeout(120_000);
  let browser: Browser;
  let saved: Config;

  before(async () => {
    saved = config();
    setConfig({ ...saved, publicBaseUrl: h().api.url });
    const executablePath = execFileSync('bash', [path.resolve(__dirname, '../../../scripts/install-chromium.sh')], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'inherit'],
    }).trim();
    // --no-sandbox: CI runs as root; autoplay without a gesture for the headless player.
    browser = await chromium.launch({
      executablePath,
      headless: true,
      args: ['--no-sandbox', '--autoplay-policy=no-user-gesture-required'],
    });
  });
  after(async () => {
    await browser?.close();
    setConfig(saved);
  });

  it("plays a test-mode call's recording in <audio> and seeks in it", async () => {
    const t = await newTenant({ first_message: 'Hello.', recording: { enabled: true } });
    const created = await request('POST', '/v1/calls', {
      key: t.testKey,
      body: {
        to: '+14155550123',
        agent_id: t.agentId,
        simulation: { caller: ['One.', 'Two.', 'Three.'], pause_seconds: 1.5 },
      },
    });
    const call = await waitForCall(t.testKey, created.body.id);
    const rec = await eventually(async () => {
      const res = await request('GET', `/v1/calls/${call.id}/recording`, { key: t.testKey });
      return res.status === 200 ? res.body : null;
    }, 'the recording');
    expect(rec.duration_ms).to.be.greaterThan(3000);
    const page = await browser.newPage();
    const ranges: string[] = [];
    page.on('response', (r) => {
      if (r.url().startsWith(rec.url.split('?')[0])) ranges.push(`${r.status()} ${r.headers()['content-range'] ?? ''}`);
    });
    await page.goto(`${h().api.url}/healthz`); // same origin as the link: no CORS in the way
    const result = await page.evaluate(async (url: string) => {
      // The test's types have no DOM: the page's own constructor, typed loosely.
      const audio = new (globalThis as any).Audio();
      audio.preload = 'auto';
      audio.src = url;
      await new Promise((resolve, reject) => {
        audio.onloadedmetadata = resolve;
        audio.onerror = () => reject(new Error(`audio error ${audio.error?.code}`));
      });
      const duration = audio.duration;
      await audio.play();
      // Playing moves the clock: wait until it did (up to 5 s; a loaded machine starts the audio late).
      for (let waited = 0; audio.currentTime === 0 && waited < 5000; waited += 50)
        await new Promise((r) => setTimeout(r, 50));
      const played = audio.currentTime;
      audio.currentTime = duration - 1;
      await new Promise((resolve) => (audio.onseeked = resolve));
      const seekedTo = audio.currentTime;
      const seekable = audio.seekable.length ? audio.seekable.end(0) : 0;
      audio.pause();
      return { duration, played, seekedTo, seekable };
    }, rec.url);
    expect(result.duration).to.be.closeTo(rec.duration_ms / 1000, 0.05);
    expect(result.played).to.be.greaterThan(0);
    expect(result.seekedTo).to.be.closeTo(result.duration - 1, 0.1);
    expect(result.seekable).to.be.closeTo(result.duration, 0.05);
    expect(
      ranges.some((r) => r.startsWith('206 bytes ')),
      ranges.join(', '),
    ).to.equal(true);
    await page.close();
  });
});
