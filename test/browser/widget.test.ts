/**
 * The widget in a real browser (issue 14): headless Chromium (Debian's package, installed by
 * scripts/install-chromium.sh when missing) driven by `playwright-core` loads the demo page
 * (`/widget/demo`, which mounts `/widget.js` with a publishable key) through a loopback TCP proxy. The
 * visitor types a message and sees the assistant's answer (after the agent's `first_message`, shown as the
 * panel opens without a model request); then the proxy cuts every connection and
 * refuses new ones while the visitor's next message is answered; once the proxy lets connections through
 * again, EventSource reconnects with `Last-Event-ID` and the page shows the missed messages, each once,
 * in order. Voice: with a real LiveKit server, the Call button joins the room with Chromium's fake
 * microphone playing a WAV file; the assistant's greeting and answer are heard by the page (the level of
 * the assistant's track), the transcript has the visitor's line, and Hang up ends the call.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { chromium, type Browser, type Page } from 'playwright-core';
import { createKey } from '../../src/keys';
import { Message } from '../../src/models/conversations';
import { h, newTenant, request, waitForCall } from '../support/harness';
import { startTestLiveKit } from '../support/livekit';
import { wavFile } from '../../src/voice/endpointing';
import { eventually } from '../support/conversations';
import { startProxy, type CuttableProxy } from '../support/widget';

/** The messages the page shows, in order: `[author, text]`. */
const shown = (page: Page) =>
  page.$$eval('.svc-widget li', (items) =>
    items.map((li) => [li.getAttribute('data-author') ?? '', li.textContent ?? ''] as [string, string]),
  );

describe('widget in a browser', function () {
  this.timeout(180_000);
  let browser: Browser;
  let executablePath: string;
  let proxy: CuttableProxy;

  before(async () => {
    executablePath = execFileSync('bash', [path.resolve(__dirname, '../../../scripts/install-chromium.sh')], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'inherit'],
    }).trim();
    // --no-sandbox: CI runs as root, where Chromium's sandbox refuses to start.
    browser = await chromium.launch({ executablePath, headless: true, args: ['--no-sandbox'] });
    proxy = await startProxy(h().api.url);
  });

  after(async () => {
    await browser?.close();
    await proxy?.close();
  });

  it('shows the answer to a typed message, and after a cut connection the answers missed meanwhile, each once', async () => {
    const t = await newTenant();
    const pk = (await createKey({ orgId: t.orgId, mode: 'test', kind: 'publishable' })).key;
    const page = await browser.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(String(e)));
    await page.goto(`${proxy.url}/widget/demo#key=${pk}`);
    await page.waitForFunction(() => (globalThis as any).demoWidget?.state.connected === true, undefined, {
      timeout: 20_000,
    });

    await page.fill('.svc-widget input', 'Hello from the browser');
    await page.press('.svc-widget input', 'Enter');
    await page.waitForSelector('.svc-widget li[data-author=assistant]', { timeout: 30_000 });
    expect(await shown(page)).to.deep.equal([
      ['customer', 'Hello from the browser'],
      ['assistant', 'You said: Hello from the browser'],
    ]);

    // The stream's connection dies and stays down while the visitor's next message is answered.
    const session = await page.evaluate(() => (globalThis as any).demoWidget.state.session);
    proxy.hold(true);
    proxy.kill();
    await page.waitForFunction(() => (globalThis as any).demoWidget.state.connected === false, undefined, {
      timeout: 10_000,
    });
    const sent = await request('POST', '/v1/widget/messages', { key: session.token, body: { text: 'Are you there?' } });
    expect(sent.status).to.equal(200);
    await eventually(
      async () =>
        (await Message.countDocuments({ conversation_id: session.conversation_id, author: 'assistant' })) === 2,
      'the answer stored while the browser was cut off',
    );
    await new Promise((r) => setTimeout(r, 1500)); // EventSource retries meanwhile, refused
    expect(await shown(page)).to.have.length(2);

    proxy.hold(false);
    await page.waitForFunction(
      () => (globalThis as any).document.querySelectorAll('.svc-widget li').length >= 4,
      undefined,
      {
        timeout: 30_000,
      },
    );
    await new Promise((r) => setTimeout(r, 500)); // nothing more (no duplicate) arrives
    expect(await shown(page)).to.deep.equal([
      ['customer', 'Hello from the browser'],
      ['assistant', 'You said: Hello from the browser'],
      ['customer', 'Are you there?'],
      ['assistant', 'You said: Are you there?'],
    ]);
    expect(await page.evaluate(() => (globalThis as any).demoWidget.state.lastEventId)).to.equal(4);
    expect(errors).to.deep.equal([]);
    await page.close();
  });

  it("greets with the agent's first_message as the panel opens, without a model request", async () => {
    const greeting = 'Hello! I can book, move or cancel your appointment.';
    const t = await newTenant({ first_message: greeting });
    const pk = (await createKey({ orgId: t.orgId, mode: 'test', kind: 'publishable' })).key;
    const requestsBefore = h().llm.requests.length;
    const page = await browser.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(String(e)));
    await page.goto(`${h().api.url}/widget/demo#key=${pk}`);
    await page.waitForSelector('.svc-widget li[data-greeting]', { timeout: 20_000 });
    await page.waitForFunction(() => (globalThis as any).demoWidget?.state.connected === true, undefined, {
      timeout: 20_000,
    });
    expect(await shown(page)).to.deep.equal([['assistant', greeting]]);
    expect(h().llm.requests.length, 'no model request for the greeting').to.equal(requestsBefore);
    // The visitor's message comes after it, and the greeting stays first and once.
    await page.fill('.svc-widget input', 'Move it to Friday');
    await page.press('.svc-widget input', 'Enter');
    await page.waitForFunction(
      () => (globalThis as any).document.querySelectorAll('.svc-widget li[data-author=assistant]').length >= 2,
      undefined,
      { timeout: 30_000 },
    );
    expect(await shown(page)).to.deep.equal([
      ['assistant', greeting],
      ['customer', 'Move it to Friday'],
      ['assistant', 'You said: Move it to Friday'],
    ]);
    expect(errors).to.deep.equal([]);
    await page.close();
  });

  it('voice: the Call button joins a LiveKit room with the microphone; the assistant greets and answers aloud; Hang up ends the call', async () => {
    const livekit = await startTestLiveKit();
    // The microphone is a WAV file Chromium plays as the capture device: 3 s of silence, a 440 Hz tone
    // (the fake speech-to-text hears "Hello by voice"), silence again.
    const rate = 16_000;
    const samples = new Int16Array(rate * 8);
    for (let i = 3 * rate; i < 3.7 * rate; i++)
      samples[i] = Math.round(8000 * Math.sin((2 * Math.PI * 440 * i) / rate));
    const wav = path.join(h().dataDir, 'microphone.wav');
    fs.writeFileSync(wav, wavFile(samples, rate));
    h().llm.audio.phrases.set(440, 'Hello by voice');
    const voiceBrowser = await chromium.launch({
      executablePath,
      headless: true,
      args: [
        '--no-sandbox',
        '--use-fake-ui-for-media-stream',
        '--use-fake-device-for-media-stream',
        `--use-file-for-fake-audio-capture=${wav}%noloop`,
        '--autoplay-policy=no-user-gesture-required',
        '--allow-loopback-in-peer-connection',
      ],
    });
    try {
      const t = await newTenant({ first_message: 'Hi, you are talking to the assistant.' });
      const pk = (await createKey({ orgId: t.orgId, mode: 'test', kind: 'publishable' })).key;
      const page = await voiceBrowser.newPage();
      const errors: string[] = [];
      page.on('pageerror', (e) => errors.push(String(e)));
      await page.goto(`${h().api.url}/widget/demo#key=${pk}`);
      await page.waitForFunction(() => (globalThis as any).demoWidget?.state.connected === true, undefined, {
        timeout: 20_000,
      });
      await page.click('.svc-widget .svc-call');
      await page.waitForSelector('.svc-widget[data-voice=in_call]', { timeout: 20_000 });
      const callId: string = await page.evaluate(() => (globalThis as any).demoWidget.state.voice.callId);
      expect(callId).to.match(/^call_/);
      // The greeting, then the answer to what the microphone said.
      await page.waitForFunction(() => (globalThis as any).demoWidget.state.voice.assistantSpoke >= 2, undefined, {
        timeout: 30_000,
      });
      expect(h().llm.audio.transcriptions.map((x) => x.text)).to.include('Hello by voice');
      expect(h().llm.audio.speeches.map((x) => x.input)).to.include('You said: Hello by voice');
      await page.click('.svc-widget .svc-call'); // Hang up
      await page.waitForSelector('.svc-widget[data-voice=ended]', { timeout: 10_000 });
      const call = await waitForCall(t.testKey, callId);
      expect(call).to.include({ status: 'completed', end_reason: 'caller_hung_up' });
      const transcript = await request('GET', `/v1/calls/${callId}/transcript`, { key: t.testKey });
      expect(
        transcript.body.turns.map((x: { role: string; text: string }) => `${x.role}: ${x.text}`),
      ).to.include.members([
        'assistant: Hi, you are talking to the assistant.',
        'caller: Hello by voice',
        'assistant: You said: Hello by voice',
      ]);
      expect(errors).to.deep.equal([]);
    } finally {
      await voiceBrowser.close();
      await livekit.stop();
    }
  });
});
