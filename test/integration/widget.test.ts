/**
 * The browser widget's API end to end (spec section 4 "Widget"; issue 14): sessions with a publishable
 * key and verified identities (valid, wrong hash, required, rotation), allowed origins (CORS), rate limits
 * counted across two API processes, the visitor's messages answered by the real `conversationWorkflow`
 * on the `web` channel, the server-sent event stream (headers, `retry:`, heartbeats, resume with
 * `Last-Event-ID`; 1,000 events read through 100 forced disconnects alternating between two API
 * processes, every event once and in order), idle streams (one poller per API process, waking only the
 * streams of a changed conversation; caps on open streams across processes, issue 33), simulated voice rooms (rooms on a real LiveKit server are
 * test/integration/voice-rooms.test.ts), and `svcctl widget`.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { expect } from 'chai';
import { config, setConfig, type Config } from '../../src/config';
import { createKey } from '../../src/keys';
import { appendConversationLog } from '../../src/activities/conversations';
import { configureWidget, identityHash, rotateWidgetSecret } from '../../src/services/widget';
import { conversationPollerState, watchConversation } from '../../src/services/widget-streams';
import { changeWindow, ConversationLogEntry, Message } from '../../src/models/conversations';
import { WidgetSession, WidgetStreamLease } from '../../src/models/widget';
import { insertIfAbsent } from '../../src/models/store';
import { newId } from '../../src/shared/ids';
import { h, newTenant, request, waitForCall } from '../support/harness';
import { eventually } from '../support/conversations';
import { readStream, startApiProcess, type ApiProcess } from '../support/widget';

type Tenant = Awaited<ReturnType<typeof newTenant>>;
const BIN = path.resolve(__dirname, '../../../bin/svcctl.js');

/** A tenant with a test-mode publishable key. */
async function widgetTenant(): Promise<Tenant & { pk: string; livePk: string }> {
  const t = await newTenant();
  const pk = (await createKey({ orgId: t.orgId, mode: 'test', kind: 'publishable' })).key;
  const livePk = (await createKey({ orgId: t.orgId, mode: 'live', kind: 'publishable' })).key;
  return { ...t, pk, livePk };
}

const openSession = (pk: string, body: Record<string, unknown>, headers: Record<string, string> = {}) =>
  request('POST', '/v1/widget/session', { key: pk, body, headers });

/**
 * A stream held open (its status read, its body not): `close()` cuts it. The object keeps the `Response`:
 * undici cancels the body of a response that is garbage collected unread, which closes the connection
 * and gives the stream's lease back in the middle of a test (seen under load, when collections run).
 */
async function holdStream(
  url: string,
): Promise<{ status: number; body: string; retryAfter: string | null; response: Response; close(): void }> {
  const abort = new AbortController();
  const res = await fetch(url, { signal: abort.signal });
  const open = res.status === 200;
  return {
    status: res.status,
    body: open ? '' : await res.text(),
    retryAfter: res.headers.get('retry-after'),
    response: res,
    close: () => abort.abort(),
  };
}

/** Stores a message in `conversationId` and appends it to the conversation's log as entry `seq`, as the workflow does. */
async function storeLogged(orgId: string, conversationId: string, seq: number, text: string): Promise<void> {
  const id = newId('msg');
  await insertIfAbsent(Message, {
    _id: id,
    org_id: orgId,
    livemode: false,
    conversation_id: conversationId,
    channel: 'web',
    direction: 'outbound',
    from: 'widget',
    to: 'visitor:x',
    text,
    template_json: null,
    author: 'assistant',
    status: 'delivered',
    dedupe_key: `msg:${id}`,
    created: Math.floor(Date.now() / 1000),
  });
  await appendConversationLog({ conversationId, seq, messageId: id });
}

/** Runs `fn` with configuration changes, restoring the configuration afterwards. */
async function withConfig<T>(changes: Partial<Config>, fn: () => Promise<T>): Promise<T> {
  const before = config();
  setConfig({ ...before, ...changes });
  try {
    return await fn();
  } finally {
    setConfig(before);
  }
}

describe('widget', function () {
  this.timeout(180_000);
  let t: Awaited<ReturnType<typeof widgetTenant>>;

  before(async () => {
    t = await widgetTenant();
  });

  describe('sessions and identity', () => {
    it('opens a session with a publishable key only, and answers the widget_session with its token', async () => {
      const res = await openSession(t.pk, { visitor_id: 'visitor-1' });
      expect(res.status).to.equal(200);
      expect(res.body).to.include({
        object: 'widget_session',
        livemode: false,
        visitor_id: 'visitor-1',
        verified: false,
      });
      expect(res.body.user_id).to.equal(null);
      expect(res.body.id).to.match(/^wses_/);
      expect(res.body.token).to.match(new RegExp(`^${res.body.id}_secret_[A-Za-z0-9_-]{43}$`));
      expect(res.body.conversation_id).to.match(/^conv_/);
      const ttl = res.body.expires_at - Math.floor(Date.now() / 1000);
      expect(ttl).to.be.within(24 * 3600 - 10, 24 * 3600);

      const secret = await openSession(t.testKey, { visitor_id: 'visitor-1' });
      expect(secret.status).to.equal(403);
      expect(secret.body.error.code).to.equal('publishable_key_required');
      const none = await request('POST', '/v1/widget/session', { body: { visitor_id: 'v' } });
      expect(none.status).to.equal(401);
      // A publishable key opens nothing else.
      expect((await request('GET', '/v1/calls', { key: t.pk })).status).to.equal(403);
    });

    it('refuses bad bodies naming the field', async () => {
      for (const [body, param] of [
        [{}, 'visitor_id'],
        [{ visitor_id: '' }, 'visitor_id'],
        [{ visitor_id: 'x'.repeat(129) }, 'visitor_id'],
        [{ visitor_id: 'v', identity: { user_id: 'u' } }, 'identity.user_hash'],
        [{ visitor_id: 'v', extra: 1 }, 'extra'],
      ] as const) {
        const res = await openSession(t.pk, body);
        expect(res.status, JSON.stringify(body)).to.equal(400);
        expect(res.body.error.param, JSON.stringify(body)).to.equal(param);
      }
    });

    it('verifies identities: a valid hash, a wrong one (401), required identity, and rotation with a 24-hour overlap', async () => {
      const w = await widgetTenant();
      const configured = await configureWidget(w.orgId, {});
      const secret = configured.identity_secret!;
      expect(secret).to.match(/^wsec_/);

      const ok = await openSession(w.pk, {
        visitor_id: 'browser-a',
        identity: { user_id: 'user-42', user_hash: identityHash(secret, 'user-42') },
      });
      expect(ok.status).to.equal(200);
      expect(ok.body).to.include({ verified: true, user_id: 'user-42' });

      const wrong = await openSession(w.pk, {
        visitor_id: 'browser-a',
        identity: { user_id: 'user-43', user_hash: identityHash(secret, 'user-42') },
      });
      expect(wrong.status).to.equal(401);
      expect(wrong.body.error).to.include({ code: 'identity_verification_failed', param: 'identity' });
      const otherSecret = await openSession(w.pk, {
        visitor_id: 'browser-a',
        identity: { user_id: 'user-42', user_hash: identityHash('wsec_not-the-secret', 'user-42') },
      });
      expect(otherSecret.status).to.equal(401);

      // The same verified user in another browser continues the same conversation; anonymous visitors their own.
      const other = await openSession(w.pk, {
        visitor_id: 'browser-b',
        identity: { user_id: 'user-42', user_hash: identityHash(secret, 'user-42').toUpperCase() },
      });
      expect(other.body.conversation_id).to.equal(ok.body.conversation_id);
      const anonA = await openSession(w.pk, { visitor_id: 'browser-a' });
      const anonA2 = await openSession(w.pk, { visitor_id: 'browser-a', previous_token: anonA.body.token });
      const anonB = await openSession(w.pk, { visitor_id: 'browser-b' });
      expect(anonA.body.conversation_id).to.equal(anonA2.body.conversation_id);
      expect(anonA.body.conversation_id).to.not.equal(anonB.body.conversation_id);
      expect(anonA.body.conversation_id).to.not.equal(ok.body.conversation_id);

      await configureWidget(w.orgId, { requireIdentity: true });
      const anonymous = await openSession(w.pk, { visitor_id: 'browser-c' });
      expect(anonymous.status).to.equal(401);
      expect(anonymous.body.error.code).to.equal('identity_required');

      const rotated = await rotateWidgetSecret(w.orgId);
      expect(rotated.identity_secret)
        .to.match(/^wsec_/)
        .and.not.equal(secret);
      expect(rotated.previous_secret_expires_at! - Math.floor(Date.now() / 1000)).to.be.within(86_390, 86_400);
      for (const s of [secret, rotated.identity_secret!]) {
        const res = await openSession(w.pk, {
          visitor_id: 'browser-d',
          identity: { user_id: 'user-7', user_hash: identityHash(s, 'user-7') },
        });
        expect(res.status).to.equal(200);
      }
      // Past the overlap the old secret no longer verifies.
      const later = await rotateWidgetSecret(w.orgId, Date.now() - 25 * 3600 * 1000);
      const stale = await openSession(w.pk, {
        visitor_id: 'browser-d',
        identity: { user_id: 'user-7', user_hash: identityHash(rotated.identity_secret!, 'user-7') },
      });
      expect(stale.status).to.equal(401);
      const fresh = await openSession(w.pk, {
        visitor_id: 'browser-d',
        identity: { user_id: 'user-7', user_hash: identityHash(later.identity_secret!, 'user-7') },
      });
      expect(fresh.status).to.equal(200);
    });

    it("replays an unverified visitor's history only to the browser holding its session token, never for the visitor_id alone", async () => {
      const w = await widgetTenant();
      const visitor = `known-${Date.now()}`;
      const first = (await openSession(w.pk, { visitor_id: visitor })).body;
      await storeLogged(w.orgId, first.conversation_id, 1, 'my order 42 goes to 7 Elm Street');
      const history = async (token: string) =>
        (
          await readStream(`${h().api.url}/v1/widget/stream?token=${token}`, {
            stop: (events) => events.length >= 1,
            timeoutMs: 3_000,
          })
        ).events.map((e) => JSON.parse(e.data).text as string);
      expect(await history(first.token)).to.deep.equal(['my order 42 goes to 7 Elm Street']);

      // Someone who knows only the visitor_id (and the page's publishable key) gets a conversation of their own.
      const stranger = await openSession(w.pk, { visitor_id: visitor });
      expect(stranger.status).to.equal(200);
      expect(stranger.body.conversation_id).not.to.equal(first.conversation_id);
      expect(await history(stranger.body.token)).to.deep.equal([]);
      // So does one presenting another visitor's token, or a forged one.
      const other = (await openSession(w.pk, { visitor_id: `other-${Date.now()}` })).body;
      for (const previous of [other.token, `${first.id}_secret_${'A'.repeat(43)}`]) {
        const forged = (await openSession(w.pk, { visitor_id: visitor, previous_token: previous })).body;
        expect(forged.conversation_id).not.to.equal(first.conversation_id);
        expect(await history(forged.token)).to.deep.equal([]);
      }

      // The browser holding the earlier token (expired or not) continues its conversation, history and all.
      await WidgetSession.updateOne({ _id: first.id }, { $set: { expires_ms: Date.now() - 1000 } });
      const back = (await openSession(w.pk, { visitor_id: visitor, previous_token: first.token })).body;
      expect(back.conversation_id).to.equal(first.conversation_id);
      expect(await history(back.token)).to.deep.equal(['my order 42 goes to 7 Elm Street']);
    });

    it('the widget script draws its ids from crypto (randomUUID), never Math.random', () => {
      const script = fs.readFileSync(path.resolve(__dirname, '../../../web/widget.js'), 'utf8');
      expect(script).to.include('crypto.randomUUID');
      expect(script).not.to.match(/Math\.random/);
    });

    it('svcctl widget configure and rotate-secret: JSON out, the secret shown once, usage errors exit 2', async () => {
      const w = await widgetTenant();
      const run = async (...args: string[]) => {
        try {
          const { stdout } = await promisify(execFile)('node', [BIN, ...args], {
            env: { ...process.env, MONGODB_URI: h().ferret.uri, SECRETS_KEY: config().secretsKey },
          });
          return { code: 0, out: JSON.parse(stdout) };
        } catch (e) {
          return { code: (e as { code: number }).code, out: null };
        }
      };
      const first = await run(
        'widget',
        'configure',
        '--org',
        w.orgId,
        '--allowed-origins',
        'https://shop.example,https://www.shop.example:8443',
        '--require-identity',
      );
      expect(first.code).to.equal(0);
      expect(first.out).to.include({ object: 'widget_settings', org_id: w.orgId, require_identity: true });
      expect(first.out.allowed_origins).to.deep.equal(['https://shop.example', 'https://www.shop.example:8443']);
      expect(first.out.identity_secret).to.match(/^wsec_/);
      const again = await run('widget', 'configure', '--org', w.orgId, '--no-require-identity');
      expect(again.out.identity_secret).to.equal(undefined);
      expect(again.out.require_identity).to.equal(false);
      expect(again.out.allowed_origins).to.have.length(2);
      // The secret the CLI showed is the one the API verifies with.
      const verified = await openSession(
        w.pk,
        { visitor_id: 'v', identity: { user_id: 'u1', user_hash: identityHash(first.out.identity_secret, 'u1') } },
        { Origin: 'https://shop.example' },
      );
      expect(verified.status).to.equal(200);
      const rotated = await run('widget', 'rotate-secret', '--org', w.orgId);
      expect(rotated.out.identity_secret)
        .to.match(/^wsec_/)
        .and.not.equal(first.out.identity_secret);
      expect(
        (await run('widget', 'configure', '--org', w.orgId, '--allowed-origins', 'https://a.example/path')).code,
      ).to.equal(2);
      expect((await run('widget', 'configure')).code).to.equal(2);
      expect((await run('widget', 'configure', '--org', 'org_missing')).code).to.equal(1);
    });
  });

  describe('origins', () => {
    it('answers any origin in test mode until origins are set, then only those; live mode needs them', async () => {
      const w = await widgetTenant();
      const any = await openSession(w.pk, { visitor_id: 'v' }, { Origin: 'https://anywhere.example' });
      expect(any.status).to.equal(200);
      expect(any.headers.get('access-control-allow-origin')).to.equal('https://anywhere.example');
      expect(any.headers.get('vary')).to.match(/Origin/);

      const live = await openSession(w.livePk, { visitor_id: 'v' }, { Origin: 'https://anywhere.example' });
      expect(live.status).to.equal(403);
      expect(live.body.error.code).to.equal('origin_not_allowed');
      expect(live.headers.get('access-control-allow-origin')).to.equal(null);
      // Server-side calls (no Origin) are not browser requests: live mode answers them.
      expect((await openSession(w.livePk, { visitor_id: 'v' })).status).to.equal(200);

      await configureWidget(w.orgId, { allowedOrigins: ['https://shop.example'] });
      const allowed = await openSession(w.pk, { visitor_id: 'v' }, { Origin: 'https://shop.example' });
      expect(allowed.status).to.equal(200);
      expect(allowed.headers.get('access-control-allow-origin')).to.equal('https://shop.example');
      const refused = await openSession(w.pk, { visitor_id: 'v' }, { Origin: 'https://evil.example' });
      expect(refused.status).to.equal(403);
      expect(refused.body.error.code).to.equal('origin_not_allowed');
      expect(refused.headers.get('access-control-allow-origin')).to.equal(null);
      // The session's other endpoints check the origin too.
      const msg = await request('POST', '/v1/widget/messages', {
        key: allowed.body.token,
        body: { text: 'hi' },
        headers: { Origin: 'https://evil.example' },
      });
      expect(msg.status).to.equal(403);
      const stream = await readStream(`${h().api.url}/v1/widget/stream?token=${allowed.body.token}`, {
        headers: { Origin: 'https://evil.example' },
      });
      expect(stream.status).to.equal(403);

      const preflight = await fetch(`${h().api.url}/v1/widget/messages`, {
        method: 'OPTIONS',
        headers: {
          Origin: 'https://shop.example',
          'Access-Control-Request-Method': 'POST',
          'Access-Control-Request-Headers': 'authorization, content-type, idempotency-key',
        },
      });
      expect(preflight.status).to.equal(204);
      expect(preflight.headers.get('access-control-allow-origin')).to.equal('https://shop.example');
      expect(preflight.headers.get('access-control-allow-headers')).to.match(/Idempotency-Key/);
    });
  });

  describe('messages and the stream', () => {
    it("stores the visitor's message, the assistant answers on the web channel, and the stream shows both in order", async () => {
      const s = (await openSession(t.pk, { visitor_id: `chat-${Date.now()}` })).body;
      const sent = await request('POST', '/v1/widget/messages', {
        key: s.token,
        body: { text: 'Do you open on Saturdays?' },
        headers: { 'Idempotency-Key': 'widget-msg-1' },
      });
      expect(sent.status).to.equal(200);
      expect(sent.body).to.include({
        object: 'message',
        channel: 'web',
        direction: 'inbound',
        author: 'customer',
        text: 'Do you open on Saturdays?',
        conversation_id: s.conversation_id,
      });
      const replay = await request('POST', '/v1/widget/messages', {
        key: s.token,
        body: { text: 'Do you open on Saturdays?' },
        headers: { 'Idempotency-Key': 'widget-msg-1' },
      });
      expect(replay.body.id).to.equal(sent.body.id);
      expect(replay.headers.get('idempotent-replayed')).to.equal('true');

      const read = await readStream(`${h().api.url}/v1/widget/stream?token=${s.token}`, {
        stop: (events) => events.length >= 2,
      });
      expect(read.status).to.equal(200);
      expect(read.headers.get('content-type')).to.match(/^text\/event-stream/);
      expect(read.headers.get('cache-control')).to.include('no-transform');
      expect(read.headers.get('x-accel-buffering')).to.equal('no');
      expect(read.retry).to.be.a('number').above(0);
      expect(read.events.map((e) => [e.event, e.id])).to.deep.equal([
        ['message', '1'],
        ['message', '2'],
      ]);
      const [question, answer] = read.events.map((e) => JSON.parse(e.data));
      expect(question.id).to.equal(sent.body.id);
      expect(answer).to.include({
        direction: 'outbound',
        author: 'assistant',
        text: 'You said: Do you open on Saturdays?',
        channel: 'web',
      });
      expect(answer.status).to.equal('delivered');
      // One message, not two, for the replayed request.
      expect(await Message.countDocuments({ conversation_id: s.conversation_id })).to.equal(2);

      // Resume after event 1: only event 2; after 2: nothing yet (and a heartbeat keeps the line open).
      const resumed = await readStream(`${h().api.url}/v1/widget/stream?token=${s.token}`, {
        headers: { 'Last-Event-ID': '1' },
        stop: (events) => events.length >= 1,
      });
      expect(resumed.events.map((e) => e.id)).to.deep.equal(['2']);
      const idle = await withConfig({ widgetStreamHeartbeatMs: 200 }, () =>
        readStream(`${h().api.url}/v1/widget/stream?token=${s.token}&last_event_id=2`, { timeoutMs: 2_000 }),
      );
      expect(idle.events).to.have.length(0);
      expect(idle.comments).to.include('heartbeat');

      const badToken = await request('POST', '/v1/widget/messages', { key: `${s.token}x`, body: { text: 'hi' } });
      expect(badToken.status).to.equal(401);
      expect(badToken.body.error.code).to.equal('widget_session_invalid');
      const noToken = await readStream(`${h().api.url}/v1/widget/stream`);
      expect(noToken.status).to.equal(401);
      const badResume = await readStream(`${h().api.url}/v1/widget/stream?token=${s.token}&last_event_id=abc`);
      expect(badResume.status).to.equal(400);
      const empty = await request('POST', '/v1/widget/messages', { key: s.token, body: { text: '' } });
      expect(empty.status).to.equal(400);
      expect(empty.body.error.param).to.equal('text');
    });

    it('takes a reply to the visitor through POST /v1/messages (channel web): stored, streamed, in the conversation', async () => {
      const s = (await openSession(t.pk, { visitor_id: `reply-${Date.now()}` })).body;
      const asked = await request('POST', '/v1/widget/messages', { key: s.token, body: { text: 'Is anyone there?' } });
      expect(asked.status).to.equal(200);
      const to = `visitor:${s.visitor_id}`;
      const reply = await request('POST', '/v1/messages', {
        key: t.testKey,
        body: { channel: 'web', to, text: 'Yes, a person is here.' },
        headers: { 'Idempotency-Key': `reply-${s.id}` },
      });
      expect(reply.status, JSON.stringify(reply.body)).to.equal(200);
      expect(reply.body).to.include({
        channel: 'web',
        direction: 'outbound',
        author: 'api',
        text: 'Yes, a person is here.',
        conversation_id: s.conversation_id,
      });
      // The stream shows the question, the assistant's answer and the reply (in the order stored).
      const read = await readStream(`${h().api.url}/v1/widget/stream?token=${s.token}`, {
        stop: (events) => events.length >= 3,
      });
      const texts = read.events.map((e) => JSON.parse(e.data).text);
      expect(texts).to.have.members(['Is anyone there?', 'You said: Is anyone there?', 'Yes, a person is here.']);
      expect(read.events.map((e) => e.id)).to.deep.equal(['1', '2', '3']);
      const stored = await request('GET', `/v1/messages/${reply.body.id}`, { key: t.testKey });
      expect(stored.body.status).to.equal('delivered');

      // Refused, naming the param: a phone number on web, a visitor on WhatsApp, a visitor with no
      // conversation, a template on web.
      const cases: [Record<string, unknown>, number, string, string][] = [
        [{ channel: 'web', to: '+14155550100', text: 'x' }, 400, 'to', 'parameter_invalid'],
        [{ channel: 'whatsapp', to, text: 'x' }, 400, 'to', 'parameter_invalid'],
        [{ channel: 'web', to: 'visitor:nobody-here', text: 'x' }, 422, 'to', 'conversation_missing'],
        [{ channel: 'web', to, template: { name: 'x', language: 'en' } }, 400, 'template', 'parameter_invalid'],
      ];
      for (const [body, status, param, code] of cases) {
        const res = await request('POST', '/v1/messages', { key: t.testKey, body });
        expect(res.status, JSON.stringify([body, res.body])).to.equal(status);
        expect(res.body.error).to.include({ param, code });
      }
    });

    it('resumes across two API processes: 1,000 events through 100 forced disconnects, every event once and in order', async () => {
      const s = (await openSession(t.pk, { visitor_id: `resume-${Date.now()}` })).body;
      const other: ApiProcess = await startApiProcess({ WIDGET_RATE_LIMIT_SESSION: '0', WIDGET_RATE_LIMIT_IP: '0' });
      try {
        const TOTAL = 1000;
        // The producer stores messages and their log entries as the conversation's workflow does, while the
        // reader reads; the reader cuts its connection every ~10 events and reconnects to the other process.
        const producer = (async () => {
          for (let seq = 1; seq <= TOTAL; seq++) {
            const id = newId('msg');
            await insertIfAbsent(Message, {
              _id: id,
              org_id: t.orgId,
              livemode: false,
              conversation_id: s.conversation_id,
              channel: 'web',
              direction: 'outbound',
              from: 'widget',
              to: 'visitor:resume',
              text: `event ${seq}`,
              template_json: null,
              author: 'assistant',
              status: 'delivered',
              dedupe_key: `msg:${id}`,
              created: Math.floor(Date.now() / 1000),
            });
            await appendConversationLog({ conversationId: s.conversation_id, seq, messageId: id });
            if (seq % 50 === 0) await new Promise((r) => setImmediate(r));
          }
        })();
        const seen: number[] = [];
        const texts: string[] = [];
        let last = 0;
        let disconnects = 0;
        const bases = [h().api.url, other.url];
        await withConfig({ widgetRateLimitSession: 0, widgetRateLimitIp: 0 }, async () => {
          while (last < TOTAL) {
            const cut = 5 + Math.floor(Math.random() * 11); // 5 to 15 events, then the connection drops
            const read = await readStream(`${bases[disconnects % 2]}/v1/widget/stream?token=${s.token}`, {
              headers: last ? { 'Last-Event-ID': String(last) } : {},
              stop: (events) => events.length >= cut || Number(events.at(-1)?.id) >= TOTAL,
              timeoutMs: 20_000,
            });
            expect(read.status).to.equal(200);
            for (const e of read.events) {
              seen.push(Number(e.id));
              texts.push(JSON.parse(e.data).text);
              last = Number(e.id);
            }
            disconnects++;
          }
        });
        await producer;
        expect(disconnects).to.be.at.least(66); // ~100 on average; each drop mid-stream
        expect(seen).to.deep.equal(Array.from({ length: TOTAL }, (_, i) => i + 1));
        expect(texts).to.deep.equal(Array.from({ length: TOTAL }, (_, i) => `event ${i + 1}`));
        console.log(`      (${disconnects} disconnects across 2 API processes)`);
      } finally {
        await other.stop();
      }
    });

    it('answers messages posted through two API processes in one conversation, the log numbered without gaps', async () => {
      const s = (await openSession(t.pk, { visitor_id: `two-${Date.now()}` })).body;
      const other = await startApiProcess();
      try {
        const posts = await Promise.all(
          ['one', 'two', 'three', 'four'].map((text, i) =>
            fetch(`${i % 2 ? other.url : h().api.url}/v1/widget/messages`, {
              method: 'POST',
              headers: { Authorization: `Bearer ${s.token}`, 'Content-Type': 'application/json' },
              body: JSON.stringify({ text }),
            }),
          ),
        );
        expect(posts.map((p) => p.status)).to.deep.equal([200, 200, 200, 200]);
        // The assistant answers what arrived while it was answering in one reply (as on WhatsApp), so the
        // count of replies varies: wait until the newest message is a reply to all four and nothing moves.
        const stored = await eventually(async () => {
          const rows = await Message.find({ conversation_id: s.conversation_id }).sort({ _id: 1 }).lean();
          const customers = rows.filter((r) => r.author === 'customer').length;
          if (customers < 4 || rows.at(-1)?.author !== 'assistant') return null;
          await new Promise((r) => setTimeout(r, 1000));
          const again = await Message.countDocuments({ conversation_id: s.conversation_id });
          return again === rows.length ? rows : null;
        }, 'the answers to four messages');
        const read = await readStream(`${other.url}/v1/widget/stream?token=${s.token}`, {
          stop: (events) => events.length >= stored.length,
          timeoutMs: 30_000,
        });
        expect(read.events.map((e) => Number(e.id))).to.deep.equal(stored.map((_, i) => i + 1));
        const messages = read.events.map((e) => JSON.parse(e.data));
        expect(messages.map((m) => m.id)).to.have.members(stored.map((r) => r._id));
        expect(messages.filter((m) => m.author === 'customer').map((m) => m.text)).to.have.members([
          'one',
          'two',
          'three',
          'four',
        ]);
        expect(messages.filter((m) => m.author === 'assistant')).to.have.length.of.at.least(1);
      } finally {
        await other.stop();
      }
    });
  });

  describe('idle streams (issue 33)', () => {
    it("wakes a stream through its process's one poller, which runs only while a stream is open", async () => {
      const s = (await openSession(t.pk, { visitor_id: `poller-${Date.now()}` })).body;
      await eventually(async () => !conversationPollerState().polling, 'no poller without an open stream');
      const reading = readStream(`${h().api.url}/v1/widget/stream?token=${s.token}`, {
        stop: (events) => events.length >= 1,
        timeoutMs: 20_000,
      });
      await eventually(async () => conversationPollerState().polling, 'the poller started by the stream');
      const sent = await request('POST', '/v1/widget/messages', { key: s.token, body: { text: 'Hello poller' } });
      expect(sent.status).to.equal(200);
      const stored = Date.now();
      const read = await reading;
      const latencyMs = Date.now() - stored;
      expect(read.events.map((e) => JSON.parse(e.data).id)).to.deep.equal([sent.body.id]);
      console.log(`      (stored → on the stream: ${latencyMs} ms)`);
      expect(latencyMs).to.be.below(5_000);
      // The stream closed: the poller stops (no timer, no query) once it sees no stream.
      await eventually(async () => !conversationPollerState().polling, 'the poller stopped');
      const polls = conversationPollerState().polls;
      await new Promise((r) => setTimeout(r, 3 * config().widgetStreamPollMs));
      expect(conversationPollerState().polls).to.equal(polls);
    });

    it('wakes only the streams whose conversation changed', async () => {
      const a = (await openSession(t.pk, { visitor_id: `wake-a-${Date.now()}` })).body;
      const b = (await openSession(t.pk, { visitor_id: `wake-b-${Date.now()}` })).body;
      // Two watchers as the streams register them, and two real streams beside them.
      const wakes = { a: 0, b: 0 };
      let lastA = 0;
      const stopA = watchConversation({ conversationId: a.conversation_id, last: () => lastA, wake: () => wakes.a++ });
      const stopB = watchConversation({ conversationId: b.conversation_id, last: () => 0, wake: () => wakes.b++ });
      const streamA = readStream(`${h().api.url}/v1/widget/stream?token=${a.token}`, {
        stop: (events) => events.length >= 2,
        timeoutMs: 20_000,
      });
      const streamB = readStream(`${h().api.url}/v1/widget/stream?token=${b.token}`, { timeoutMs: 4_000 });
      try {
        await storeLogged(t.orgId, a.conversation_id, 1, 'only for a');
        await eventually(async () => wakes.a > 0, "a's wake");
        lastA = 1;
        const settled = wakes.a;
        // The entry stays in its change window for a few polls: seen again, it wakes nobody.
        await new Promise((r) => setTimeout(r, 5 * config().widgetStreamPollMs));
        expect(wakes.a).to.equal(settled);
        await storeLogged(t.orgId, a.conversation_id, 2, 'again for a');
        const readA = await streamA;
        expect(readA.events.map((e) => JSON.parse(e.data).text)).to.deep.equal(['only for a', 'again for a']);
        expect(wakes.b).to.equal(0);
        const readB = await streamB;
        expect(readB.status).to.equal(200);
        expect(readB.events).to.have.length(0);
        expect(wakes.b).to.equal(0);
      } finally {
        stopA();
        stopB();
      }
    });

    it("serves the poller's and the caps' queries by an index (embedded store's equality pushdown)", async () => {
      const planOf = async (coll: { find(f: object): { explain(): Promise<unknown> } }, filter: object) => {
        const explained = (await coll.find(filter).explain()) as { queryPlanner?: { Plan?: string[] } };
        return (explained.queryPlanner?.Plan ?? []).join('\n');
      };
      const queries: [typeof ConversationLogEntry.collection, object][] = [
        [ConversationLogEntry.collection, { window: changeWindow(Date.now()) }],
        [WidgetStreamLease.collection, { session_id: 'wses_x' }],
        [WidgetStreamLease.collection, { ip_key: `${t.orgId}:127.0.0.1` }],
        [WidgetStreamLease.collection, { org_id: t.orgId }],
        [WidgetStreamLease.collection, { holder: 'wsth_x' }],
      ];
      for (const [coll, filter] of queries) {
        const plan = await planOf(coll, filter);
        expect(plan, JSON.stringify(filter)).to.match(/USING INDEX/);
        expect(plan, JSON.stringify(filter)).to.not.match(/\bSCAN /);
      }
    });

    it('caps open streams per session, per organization and IP address, and per organization, across API processes (429)', async () => {
      const w = await widgetTenant();
      const session = async () => (await openSession(w.pk, { visitor_id: `cap-${newId('v')}` })).body;
      const streamUrl = (base: string, token: string) => `${base}/v1/widget/stream?token=${token}`;
      const expectRefused = (r: Awaited<ReturnType<typeof holdStream>>, subject: string) => {
        expect(r.status).to.equal(429);
        expect(Number(r.retryAfter)).to.be.within(1, 60);
        const error = JSON.parse(r.body).error;
        expect(error).to.include({ type: 'rate_limit_error', code: 'stream_limit_exceeded' });
        expect(error.message).to.include(subject);
      };
      const other = await startApiProcess({
        WIDGET_STREAMS_PER_SESSION: '2',
        WIDGET_STREAMS_PER_IP: '3',
        WIDGET_STREAMS_PER_ORG: '4',
      });
      const held: Awaited<ReturnType<typeof holdStream>>[] = [];
      try {
        await withConfig({ widgetStreamsPerSession: 2, widgetStreamsPerIp: 3, widgetStreamsPerOrg: 4 }, async () => {
          // Per session: two, one through each process; the third (either process) is refused.
          const s1 = await session();
          held.push(await holdStream(streamUrl(h().api.url, s1.token)));
          held.push(await holdStream(streamUrl(other.url, s1.token)));
          expect(held.map((r) => r.status)).to.deep.equal([200, 200]);
          expectRefused(await holdStream(streamUrl(other.url, s1.token)), 'session');
          expectRefused(await holdStream(streamUrl(h().api.url, s1.token)), 'session');
          // One closed, one more admitted.
          held.shift()!.close();
          const again = await eventually(async () => {
            const r = await holdStream(streamUrl(h().api.url, s1.token));
            if (r.status === 200) return r;
            r.close();
            return null;
          }, 'a stream after one closed');
          held.push(again);
          // Per organization and IP: a third from this address (another session) is the last.
          const s2 = await session();
          held.push(await holdStream(streamUrl(other.url, s2.token)));
          expect(held.at(-1)!.status).to.equal(200);
          expectRefused(await holdStream(streamUrl(h().api.url, s2.token)), 'IP address');
          // Another organization's visitors from the same address are not counted against this one.
          const o = await widgetTenant();
          const os = (await openSession(o.pk, { visitor_id: `cap-other-${Date.now()}` })).body;
          const otherOrg = await holdStream(streamUrl(h().api.url, os.token));
          expect(otherOrg.status).to.equal(200);
          otherOrg.close();
        });
        // Per organization: with the per-address cap off, the fourth stream of the organization is the last.
        await withConfig({ widgetStreamsPerSession: 2, widgetStreamsPerIp: 0, widgetStreamsPerOrg: 4 }, async () => {
          const s3 = await session();
          held.push(await holdStream(streamUrl(h().api.url, s3.token)));
          expect(held.at(-1)!.status).to.equal(200);
          expectRefused(await holdStream(streamUrl(h().api.url, s3.token)), 'organization');
        });
      } finally {
        for (const r of held) r.close();
        await other.stop();
      }
    });
  });

  describe('rate limits', () => {
    it('limits each session and each IP address across two API processes, 429 with Retry-After', async () => {
      const s = (await openSession(t.pk, { visitor_id: `limits-${Date.now()}` })).body;
      const other = await startApiProcess({ WIDGET_RATE_LIMIT_SESSION: '4' });
      try {
        const statuses = await withConfig({ widgetRateLimitSession: 4 }, async () => {
          const out: number[] = [];
          for (let i = 0; i < 8; i++) {
            const res = await fetch(`${i % 2 ? other.url : h().api.url}/v1/widget/messages`, {
              method: 'POST',
              headers: { Authorization: `Bearer ${s.token}`, 'Content-Type': 'application/json' },
              body: JSON.stringify({ text: `limit ${i}` }),
            });
            out.push(res.status);
            if (res.status === 429) {
              expect(Number(res.headers.get('retry-after'))).to.be.within(1, 60);
              const body = (await res.json()) as { error: { message: string } };
              expect(body.error).to.include({ type: 'rate_limit_error', code: 'rate_limit_exceeded' });
              expect(body.error.message).to.include('session');
            } else await res.text();
          }
          return out;
        });
        // Four in the minute between the two processes, whichever served them (unless the minute turned).
        const admitted = statuses.filter((c) => c === 200).length;
        expect(admitted, statuses.join(',')).to.be.within(4, 8);
        if (admitted === 4) expect(statuses.slice(4)).to.deep.equal([429, 429, 429, 429]);
      } finally {
        await other.stop();
      }
      const perIp = await withConfig({ widgetRateLimitIp: 3 }, async () => {
        const w = await widgetTenant();
        const out: number[] = [];
        // Seven against three a minute: at least one refused even if the minute turns (3 + 3) meanwhile.
        for (let i = 0; i < 7; i++) out.push((await openSession(w.pk, { visitor_id: `ip-${i}` })).status);
        return out;
      });
      expect(perIp.filter((c) => c === 429).length, perIp.join(',')).to.be.at.least(1);
    });
  });

  describe('voice', () => {
    it('test mode without LiveKit: a simulated room whose call runs as a simulated call with the same events', async () => {
      const s = (await openSession(t.pk, { visitor_id: `voice-${Date.now()}` })).body;
      const res = await request('POST', '/v1/widget/voice', {
        key: s.token,
        headers: { 'Idempotency-Key': 'voice-1' },
      });
      expect(res.status).to.equal(200);
      expect(res.body).to.include({ object: 'widget_voice', simulated: true, room: res.body.call_id });
      expect(res.body.call_id).to.match(/^call_/);
      expect(res.body.expires_at - Math.floor(Date.now() / 1000)).to.be.within(590, 600);
      const again = await request('POST', '/v1/widget/voice', {
        key: s.token,
        headers: { 'Idempotency-Key': 'voice-1' },
      });
      expect(again.body.call_id).to.equal(res.body.call_id);
      const call = await waitForCall(t.testKey, res.body.call_id);
      expect(call.status).to.equal('completed');
      expect(call.metadata).to.deep.equal({ widget_session: s.id });
      const events = await eventually(async () => {
        const list = await request('GET', '/v1/events?limit=100', { key: t.testKey });
        const mine = list.body.data.filter((e: any) => e.data.object.id === res.body.call_id);
        return mine.some((e: any) => e.type === 'call.ended') ? mine : null;
      }, "the voice call's events");
      expect(events.map((e: any) => e.type)).to.include.members(['call.started', 'call.ended']);
      const live = (await openSession(t.livePk, { visitor_id: 'v' })).body;
      const refused = await request('POST', '/v1/widget/voice', { key: live.token });
      expect(refused.status).to.equal(503);
      expect(refused.body.error.code).to.equal('voice_not_configured');
    });

    it('a browser voice call is not dialed, so no dial gate holds or refuses it, calling hours enforced', async () => {
      // `visitor:…` has no local time: the gate's calling hours would refuse it (`canceled`) under `enforce`,
      // the default outside the test rig, though nobody is dialed.
      const s = (await openSession(t.pk, { visitor_id: `voice-enforced-${Date.now()}` })).body;
      const call = await withConfig({ callingHoursEnforcement: 'enforce' }, async () => {
        const res = await request('POST', '/v1/widget/voice', { key: s.token });
        expect(res.status, JSON.stringify(res.body)).to.equal(200);
        return await waitForCall(t.testKey, res.body.call_id);
      });
      expect(call.status, JSON.stringify(call)).to.equal('completed');
      expect(call.compliance ?? null).to.equal(null);
    });
  });
});
