/**
 * The TypeScript SDK's hand-written core (sdk/typescript/src/index.ts) through its `fetch` option: retries
 * keep one Idempotency-Key and honour `Retry-After`, per-request options reach the request, errors are
 * typed with `code`, `param` and `requestId`, a deadline is a `timeout` connection error, an event stream
 * is parsed across chunk boundaries and ends on `close()`, and `constructEvent` returns an unknown event
 * type as an unknown event.
 */
import { expect } from 'chai';
import {
  ApiConnectionError,
  InvalidRequestError,
  RateLimitError,
  Svc,
  signatureHeader,
  type CallStreamEvent,
} from '../../sdk/typescript/src';

interface Seen {
  url: string;
  headers: Record<string, string>;
  at: number;
}

/** A client whose fetch answers with `answers` in turn, recording each request. */
function client(answers: ((init: RequestInit) => Response | Promise<Response>)[], maxRetries = 2) {
  const seen: Seen[] = [];
  const fakeFetch = async (url: string, init: RequestInit) => {
    seen.push({ url, headers: init.headers as Record<string, string>, at: Date.now() });
    return answers[Math.min(seen.length - 1, answers.length - 1)](init);
  };
  const svc = new Svc({
    apiKey: 'svc_sk_test_core',
    baseUrl: 'http://sdk.invalid',
    maxRetries,
    fetch: fakeFetch as never,
  });
  return { svc, seen };
}

const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json', ...headers } });
const refusal = (type: string, code: string, param?: string) => ({ error: { type, code, message: code, param } });

describe('TypeScript SDK core', () => {
  it('retries a 429 after Retry-After and a 503 with one Idempotency-Key, then answers', async () => {
    const { svc, seen } = client([
      () => json(429, refusal('rate_limit_error', 'rate_limit_exceeded'), { 'Retry-After': '1' }),
      () => json(503, refusal('api_error', 'service_unavailable'), { 'Retry-After': new Date(0).toUTCString() }),
      () => json(200, { id: 'call_1', object: 'call', status: 'queued' }),
    ]);
    const call = await svc.calls.create({ to: '+14155550100', agent_id: 'agt_1' });
    expect(call.id).to.equal('call_1');
    expect(seen).to.have.length(3);
    expect(new Set(seen.map((s) => s.headers['Idempotency-Key'])).size).to.equal(1);
    expect(seen[1].at - seen[0].at, 'waited Retry-After: 1').to.be.at.least(950);
    expect(seen[2].at - seen[1].at, 'a past HTTP date: no wait').to.be.below(500);
  });

  it('gives up after maxRetries with the typed error', async () => {
    const { svc, seen } = client(
      [() => json(429, refusal('rate_limit_error', 'rate_limit_exceeded'), { 'Retry-After': '0' })],
      1,
    );
    const err = await svc.calls.list().then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).to.be.instanceOf(RateLimitError).and.include({ statusCode: 429, retryAfter: 0 });
    expect(seen).to.have.length(2);
  });

  it('sends the per-request key, version and headers; a 422 is typed with code, param and request id', async () => {
    const { svc, seen } = client([
      () => json(422, refusal('invalid_request_error', 'whatsapp_window_closed', 'to'), { 'Request-Id': 'req_42' }),
    ]);
    const err = await svc.messages
      .send(
        { channel: 'whatsapp', to: '+14155550100', text: 'Hi' },
        { apiKey: 'svc_rk_test_other', svcVersion: '2026-01-01', headers: { 'X-Trace': 't1' } },
      )
      .then(
        () => undefined,
        (e: unknown) => e,
      );
    expect(err).to.be.instanceOf(InvalidRequestError);
    expect(err).to.include({ statusCode: 422, code: 'whatsapp_window_closed', param: 'to', requestId: 'req_42' });
    expect(seen).to.have.length(1);
    expect(seen[0].headers).to.include({
      Authorization: 'Bearer svc_rk_test_other',
      'Svc-Version': '2026-01-01',
      'X-Trace': 't1',
    });
  });

  it('turns a deadline into a timeout connection error', async () => {
    const hang = (init: RequestInit) =>
      new Promise<Response>((_, reject) => init.signal!.addEventListener('abort', () => reject(new Error('aborted'))));
    const { svc, seen } = client([hang], 0);
    const err = await svc.account.retrieve({ timeoutMs: 50 }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).to.be.instanceOf(ApiConnectionError).and.include({ code: 'timeout', statusCode: 0 });
    expect(seen).to.have.length(1);
  });

  it('reads an event stream across chunk boundaries, skipping heartbeats, and stops on close()', async () => {
    const chunks = [
      ': heartbeat\r\n\r\nevent: status\r\nid: 1\r\ndata: {"status":"in_pro',
      'gress","events":["call.started"],"at":1}\r\n\r\nevent: turn\nid: 2\ndata: {"seq":1,"role":"caller","text":"Hi"}\n\n',
    ];
    const { svc } = client([
      () =>
        new Response(
          new ReadableStream<Uint8Array>({
            start(controller) {
              for (const c of chunks) controller.enqueue(new TextEncoder().encode(c));
              // The stream stays open, as a live call's does, until the client closes it.
            },
          }),
          { headers: { 'Content-Type': 'text/event-stream' } },
        ),
    ]);
    const stream = svc.calls.stream('call_1');
    const got: CallStreamEvent[] = [];
    for await (const e of stream) {
      got.push(e);
      if (got.length === 2) stream.close();
    }
    expect(got.map((e) => [e.event, e.id])).to.deep.equal([
      ['status', 1],
      ['turn', 2],
    ]);
    expect(got[0].data).to.deep.equal({ status: 'in_progress', events: ['call.started'], at: 1 });
    expect(got[1].event === 'turn' && got[1].data.text).to.equal('Hi');
  });

  it('constructEvent returns a known event typed by its type, and an unknown type as an unknown event', () => {
    const known = JSON.stringify({
      id: 'evt_1',
      object: 'event',
      type: 'call.ended',
      data: { object: { id: 'call_1' } },
    });
    const event = Svc.webhooks.constructEvent(
      new TextEncoder().encode(known),
      signatureHeader(known, 'whsec_1'),
      'whsec_1',
    );
    expect(Svc.webhooks.isKnownEvent(event)).to.equal(true);
    expect(event.type === 'call.ended' && event.data.object.id).to.equal('call_1');
    const newer = JSON.stringify({ id: 'evt_2', object: 'event', type: 'call.teleported', data: { object: {} } });
    const unknown = Svc.webhooks.constructEvent(newer, signatureHeader(newer, 'whsec_2'), ['whsec_old', 'whsec_2']);
    expect(unknown.type).to.equal('call.teleported');
    expect(Svc.webhooks.isKnownEvent(unknown)).to.equal(false);
  });
});
