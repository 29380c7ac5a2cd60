/**
 * A Twilio-shaped REST server on loopback for tests: the real `twilio` package talks to it through
 * `TWILIO_API_BASE_URL`. It implements the Calls resource as far as the service uses it — create
 * (`POST /2010-04-01/Accounts/{sid}/Calls.json`) and update (`POST …/Calls/{CallSid}.json`, `Twiml` or
 * `Status`) — and the Messages resource — create (`POST …/Messages.json`: `To`, `From`, `Body` or
 * `ContentSid` + `ContentVariables`, `StatusCallback`) and list (`GET …/Messages.json` filtered by `To`,
 * `From`, `DateSent>`) — checks HTTP basic auth like Twilio, and records every request.
 *
 * Knobs for failure tests: `rejectMessagesTo` (a `To` answered with a Twilio 4xx error), `lostResponses`
 * (the next N message creates are accepted, then answered 500, as when the response is lost on the way),
 * `messageDelayMs` (held before answering a create).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import crypto from 'node:crypto';

export interface FakeTwilio {
  url: string;
  accountSid: string;
  authToken: string;
  created: Record<string, string>[];
  updates: { callSid: string; params: Record<string, string> }[];
  /** Every message create request (form parameters) that was accepted, with the SID given and when (`AtMs`). */
  messages: (Record<string, string> & { Sid: string; AtMs: string })[];
  /** Called with each accepted message create (the benchmark's clock). */
  onMessage: ((m: Record<string, string>) => void) | null;
  /** Every request to the Messages resource (create and list), accepted or not. */
  messageRequests: { method: string; url: string; params: Record<string, string> }[];
  rejectMessagesTo: Map<string, { status: number; code: number; message: string }>;
  lostResponses: number;
  messageDelayMs: number;
  close(): Promise<void>;
}

export async function startFakeTwilio(): Promise<FakeTwilio> {
  const accountSid = 'AC' + crypto.randomBytes(16).toString('hex');
  const authToken = crypto.randomBytes(16).toString('hex');
  const created: FakeTwilio['created'] = [];
  const updates: FakeTwilio['updates'] = [];
  const messages: FakeTwilio['messages'] = [];
  const messageRequests: FakeTwilio['messageRequests'] = [];
  const knobs = { onMessage: null as FakeTwilio['onMessage'], rejectMessagesTo: new Map<string, { status: number; code: number; message: string }>(), lostResponses: 0, messageDelayMs: 0 };
  const messageJson = (m: FakeTwilio['messages'][number]) => ({
    sid: m.Sid,
    account_sid: accountSid,
    to: m.To,
    from: m.From,
    body: m.Body ?? `[content ${m.ContentSid}]`,
    status: 'queued',
    date_created: m.DateCreated,
    date_sent: null,
    direction: 'outbound-api',
    num_segments: '1',
    api_version: '2010-04-01',
  });
  const server = http.createServer((req, res) => {
    let raw = '';
    req.on('data', (c) => (raw += c));
    req.on('end', () => {
      const send = (status: number, body: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(body));
      };
      const auth = Buffer.from((req.headers.authorization ?? '').replace(/^Basic /, ''), 'base64').toString();
      if (auth !== `${accountSid}:${authToken}`) return send(401, { code: 20003, message: 'Authenticate', status: 401 });
      const params = Object.fromEntries(new URLSearchParams(raw));
      const messagesPath = `/2010-04-01/Accounts/${accountSid}/Messages.json`;
      const [pathname, query = ''] = (req.url ?? '').split('?');
      if (pathname === messagesPath) {
        messageRequests.push({ method: req.method ?? '', url: req.url ?? '', params: req.method === 'GET' ? Object.fromEntries(new URLSearchParams(query)) : params });
        if (req.method === 'GET') {
          const q = Object.fromEntries(new URLSearchParams(query));
          const since = q['DateSent>'] ? Date.parse(q['DateSent>']) : 0;
          const found = messages.filter((m) => (!q.To || m.To === q.To) && (!q.From || m.From === q.From) && Date.parse(m.DateCreated) >= since - 1000);
          return send(200, { messages: found.reverse().map(messageJson), page: 0, page_size: 50, uri: req.url, first_page_uri: req.url, next_page_uri: null, previous_page_uri: null });
        }
        if (req.method === 'POST') {
          const address = /^(whatsapp:)?\+[1-9]\d{6,14}$/;
          if (!address.test(params.To ?? '') || !address.test(params.From ?? '')) return send(400, { code: 21211, message: `Invalid 'To' Phone Number: ${params.To}`, status: 400 });
          if (!params.Body && !params.ContentSid) return send(400, { code: 21602, message: 'Message body is required.', status: 400 });
          const rejection = knobs.rejectMessagesTo.get(params.To);
          if (rejection) return send(rejection.status, { code: rejection.code, message: rejection.message, status: rejection.status });
          const m = { ...params, Sid: 'SM' + crypto.randomBytes(16).toString('hex'), DateCreated: new Date().toUTCString(), AtMs: String(Date.now()) };
          messages.push(m);
          knobs.onMessage?.(m);
          const answer = () => {
            if (knobs.lostResponses > 0) {
              knobs.lostResponses--;
              return send(500, { code: 20500, message: 'Internal Server Error', status: 500 });
            }
            send(201, messageJson(m));
          };
          if (knobs.messageDelayMs > 0) setTimeout(answer, knobs.messageDelayMs);
          else answer();
          return;
        }
      }
      const base = `/2010-04-01/Accounts/${accountSid}/Calls`;
      if (req.method === 'POST' && req.url === `${base}.json`) {
        if (!/^\+[1-9]\d{6,14}$/.test(params.To ?? '')) return send(400, { code: 21211, message: `The 'To' number ${params.To} is not a valid phone number.`, status: 400 });
        created.push(params);
        const sid = 'CA' + crypto.randomBytes(16).toString('hex');
        return send(201, { sid, account_sid: accountSid, to: params.To, from: params.From, status: 'queued', direction: 'outbound-api', api_version: '2010-04-01' });
      }
      const m = new RegExp(`^${base}/(CA[0-9a-f]{32})\\.json$`).exec(req.url ?? '');
      if (req.method === 'POST' && m) {
        updates.push({ callSid: m[1], params });
        return send(200, { sid: m[1], account_sid: accountSid, status: params.Status ?? 'in-progress' });
      }
      send(404, { code: 20404, message: 'The requested resource was not found', status: 404 });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    accountSid,
    authToken,
    created,
    updates,
    messages,
    messageRequests,
    get onMessage() {
      return knobs.onMessage;
    },
    set onMessage(fn: FakeTwilio['onMessage']) {
      knobs.onMessage = fn;
    },
    get rejectMessagesTo() {
      return knobs.rejectMessagesTo;
    },
    get lostResponses() {
      return knobs.lostResponses;
    },
    set lostResponses(n: number) {
      knobs.lostResponses = n;
    },
    get messageDelayMs() {
      return knobs.messageDelayMs;
    },
    set messageDelayMs(ms: number) {
      knobs.messageDelayMs = ms;
    },
    close: () => new Promise<void>((resolve) => (server.closeAllConnections(), server.close(() => resolve()))),
  };
}
