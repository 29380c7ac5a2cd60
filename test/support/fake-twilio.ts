/**
 * A Twilio-shaped REST server on loopback for tests: the real `twilio` package talks to it through
 * `TWILIO_API_BASE_URL`. It implements the Calls resource as far as the service uses it — create
 * (`POST /2010-04-01/Accounts/{sid}/Calls.json`) and update (`POST …/Calls/{CallSid}.json`, `Twiml` or
 * `Status`) — checks HTTP basic auth like Twilio, and records every request.
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
  close(): Promise<void>;
}

export async function startFakeTwilio(): Promise<FakeTwilio> {
  const accountSid = 'AC' + crypto.randomBytes(16).toString('hex');
  const authToken = crypto.randomBytes(16).toString('hex');
  const created: FakeTwilio['created'] = [];
  const updates: FakeTwilio['updates'] = [];
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
    close: () => new Promise<void>((resolve) => (server.closeAllConnections(), server.close(() => resolve()))),
  };
}
