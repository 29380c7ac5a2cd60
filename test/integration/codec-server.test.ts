/**
 * The codec server and the other operator surfaces, attacked as an outsider would: a 6 MB body without the
 * operator token (answered 401 before the body is sent, so never buffered or parsed), the same for
 * `/v1/knowledge` and every other body of `/v1` without a key; a short `CODEC_TOKEN` (the API refuses to
 * start); the codec's own rate limit per client address; the operator-only listener (`CODEC_PORT`);
 * failure messages in the raw history (sealed, the server sees `Encoded failure`); AES-GCM data with a
 * truncated tag; a payload moved to another namespace or key id; payloads sealed in the earlier format
 * still decode.
 */
import crypto from 'node:crypto';
import { spawnSync } from 'node:child_process';
import http from 'node:http';
import path from 'node:path';
import { expect } from 'chai';
import { Client } from '@temporalio/client';
import { defaultPayloadConverter, METADATA_ENCODING_KEY, type Payload } from '@temporalio/common';
import { temporal } from '@temporalio/proto';
import { config, loadConfig, setConfig } from '../../src/config';
import {
  CIPHER_METADATA,
  CIPHER_V1,
  CIPHER_V2,
  configuredCodec,
  derivePayloadKey,
  EncryptionCodec,
  ENCRYPTED_ENCODING,
  KEY_ID_METADATA,
} from '../../src/platform/payload-codec';
import { startApi } from '../../src/api/server';
import { h, isEnded, newTenant, waitForCall } from '../support/harness';
import { placeCall } from '../support/webhooks';

const TOKEN = 'operator-codec-token-0123456789abcdef';
const MB = 1024 * 1024;

interface EarlyAnswer {
  status: number;
  body: string;
  headers: http.IncomingHttpHeaders;
}

/**
 * POSTs to `url` headers that announce `bytes` of JSON body, then sends only the first 64 KB and waits
 * `ms` for an answer: the server's answer if it came before the rest of the body, else 'no answer' (it
 * was waiting to read the whole body). `localAddress` picks the client's loopback address (127.0.0.0/8).
 */
function answerBeforeBody(
  url: string,
  bytes: number,
  headers: Record<string, string> = {},
  opts: { ms?: number; localAddress?: string } = {},
): Promise<EarlyAnswer | 'no answer'> {
  return new Promise((resolve) => {
    const u = new URL(url);
    const req = http.request({
      host: u.hostname,
      port: u.port,
      path: u.pathname,
      method: 'POST',
      localAddress: opts.localAddress,
      headers: { 'Content-Type': 'application/json', 'Content-Length': String(bytes), ...headers },
    });
    const timer = setTimeout(() => {
      resolve('no answer');
      req.destroy();
    }, opts.ms ?? 3000);
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        clearTimeout(timer);
        resolve({ status: res.statusCode!, body: Buffer.concat(chunks).toString(), headers: res.headers });
        req.destroy();
      });
    });
    req.on('error', () => undefined); // the server may close the connection once it has answered
    req.write(Buffer.alloc(64 * 1024, 0x20)); // JSON whitespace: a body that would parse, were it read
  });
}

/** A small complete POST from `localAddress` (a loopback address of its own: its own rate-limit bucket). */
function postFrom(
  localAddress: string,
  url: string,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<EarlyAnswer> {
  return new Promise((resolve, reject) => {
    const u = new URL(url);
    const data = Buffer.from(JSON.stringify(body));
    const req = http.request(
      {
        host: u.hostname,
        port: u.port,
        path: u.pathname,
        method: 'POST',
        localAddress,
        headers: { 'Content-Type': 'application/json', 'Content-Length': String(data.length), ...headers },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({ status: res.statusCode!, body: Buffer.concat(chunks).toString(), headers: res.headers }),
        );
      },
    );
    req.on('error', reject);
    req.end(data);
  });
}

/** A payload in proto3 JSON, as the Web UI sends it to a codec server. */
const toJson = (p: Payload) => ({
  metadata: Object.fromEntries(
    Object.entries(p.metadata ?? {}).map(([k, v]) => [k, Buffer.from(v ?? new Uint8Array()).toString('base64')]),
  ),
  data: Buffer.from(p.data ?? new Uint8Array()).toString('base64'),
});

const meta = (p: Payload, key: string) => Buffer.from(p.metadata?.[key] ?? new Uint8Array()).toString();

/** `p` with its metadata `key` set to `value` (a relabelled payload). */
const relabel = (p: Payload, key: string, value: string): Payload => ({
  ...p,
  metadata: { ...p.metadata, [key]: new TextEncoder().encode(value) },
});

/** Every `failure` object of a raw history (event attributes and their causes), walking the events. */
function failuresOf(value: unknown, out: Record<string, any>[] = [], depth = 0): Record<string, any>[] {
  if (depth > 40 || value == null || typeof value !== 'object' || value instanceof Uint8Array) return out;
  if (Array.isArray(value)) value.forEach((v) => failuresOf(v, out, depth + 1));
  else
    for (const [k, v] of Object.entries(value)) {
      if ((k === 'failure' || k === 'cause') && v && typeof v === 'object') out.push(v as Record<string, any>);
      failuresOf(v, out, depth + 1);
    }
  return out;
}

/** Every string of a protobuf message (and byte strings as UTF-8), joined. */
function allText(value: unknown, depth = 0): string {
  if (depth > 40 || value == null) return '';
  if (typeof value === 'string') return value;
  if (value instanceof Uint8Array) return Buffer.from(value).toString('utf8');
  if (typeof value === 'object')
    return Object.values(value)
      .map((v) => allText(v, depth + 1))
      .join('\n');
  return '';
}

describe('the codec server and operator surfaces, attacked', function () {
  this.timeout(120_000);
  let saved: ReturnType<typeof config>;

  before(() => {
    saved = config();
    setConfig({ ...saved, codecToken: TOKEN });
  });
  after(() => setConfig(saved));

  describe('bodies are read only after the caller is known', () => {
    it('answers an unauthenticated 6 MB codec body 401 before the body is sent (never buffered or parsed)', async () => {
      for (const path of ['/codec/decode', '/codec/encode', '/codec/not-the-token/decode']) {
        const answer = await answerBeforeBody(h().api.url + path, 6 * MB, { Authorization: 'Bearer nope' });
        expect(answer, path).not.to.equal('no answer');
        const { status, body } = answer as EarlyAnswer;
        expect(status, path).to.equal(401);
        expect(JSON.parse(body).error).to.include({ type: 'authentication_error', code: 'codec_token_invalid' });
      }
      // With the token the server does wait for the body: the early answer above is the token check's.
      const withToken = await answerBeforeBody(h().api.url + '/codec/decode', 1 * MB, {
        Authorization: `Bearer ${TOKEN}`,
      });
      expect(withToken).to.equal('no answer');
    });

    it('refuses a codec body over its own limit (4 MB) with 413, for the operator too', async () => {
      const answer = await answerBeforeBody(h().api.url + '/codec/decode', 6 * MB, {
        Authorization: `Bearer ${TOKEN}`,
      });
      expect(answer).not.to.equal('no answer'); // refused from its Content-Length, before the body
      expect((answer as EarlyAnswer).status).to.equal(413);
      expect(JSON.parse((answer as EarlyAnswer).body).error.code).to.equal('body_too_large');
    });

    it('answers /v1/knowledge and every other /v1 body without a key 401 before the body is sent', async () => {
      for (const [path, bytes] of [
        ['/v1/knowledge', 3 * MB], // under its 4 MB limit: the old order read all of it first
        ['/v1/knowledge/doc_123', 3 * MB],
        ['/v1/bulk-calls', 6 * MB],
        ['/v1/connectors/acme/versions', 6 * MB],
        ['/v1/agents', 900 * 1024], // the API's 1 MB parser
      ] as const) {
        const answer = await answerBeforeBody(h().api.url + path, bytes);
        expect(answer, path).not.to.equal('no answer');
        expect((answer as EarlyAnswer).status, path).to.equal(401);
        expect(JSON.parse((answer as EarlyAnswer).body).error.code, path).to.equal('api_key_missing');
      }
      const wrongKey = await answerBeforeBody(h().api.url + '/v1/knowledge', 3 * MB, {
        Authorization: 'Bearer svc_sk_test_000000000000000000000000',
      });
      expect(wrongKey).not.to.equal('no answer');
      expect((wrongKey as EarlyAnswer).status).to.equal(401);
    });
  });

  describe('CODEC_TOKEN', () => {
    it('refuses to start the API with a CODEC_TOKEN shorter than 32 characters, saying so', () => {
      expect(() => loadConfig({ ...process.env, CODEC_TOKEN: 'short-token' })).to.throw(
        /CODEC_TOKEN is 11 characters: it must be at least 32/,
      );
      expect(loadConfig({ ...process.env, CODEC_TOKEN: TOKEN }).codecToken).to.equal(TOKEN);
      expect(loadConfig({ ...process.env, CODEC_TOKEN: '' }).codecToken).to.equal(undefined);
      // The API process itself: it stops before connecting anything, with the variable named.
      const run = spawnSync(process.execPath, [path.resolve(__dirname, '../../src/api/main.js')], {
        env: {
          ...process.env,
          CODEC_TOKEN: 'short-token',
          MONGODB_URI: config().mongodbUri,
          SECRETS_KEY: config().secretsKey,
          TEMPORAL_ADDRESS: config().temporalAddress,
          PORT: '0',
        },
        encoding: 'utf8',
        timeout: 30_000,
      });
      expect(run.status, run.stdout + run.stderr).to.equal(1);
      expect(run.stdout + run.stderr).to.match(/CODEC_TOKEN is 11 characters: it must be at least 32/);
      expect(run.stdout + run.stderr).not.to.match(/API listening/);
    });

    it('opens nothing with a short token set by code (not through loadConfig)', async () => {
      setConfig({ ...config(), codecToken: 'short-token' });
      try {
        const res = await postFrom(
          '127.0.0.1',
          h().api.url + '/codec/decode',
          { payloads: [] },
          {
            Authorization: 'Bearer short-token',
          },
        );
        expect(res.status).to.equal(401);
      } finally {
        setConfig({ ...config(), codecToken: TOKEN });
      }
    });
  });

  it('rate-limits the codec server per client address (guesses included): 429 with Retry-After', async () => {
    setConfig({ ...config(), codecRateLimit: 3 });
    // A loopback address of this test's own (127.0.0.0/8 is all loopback): its own bucket.
    const from = `127.0.${crypto.randomInt(1, 250)}.${crypto.randomInt(2, 250)}`;
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 2; i++)
        statuses.push((await postFrom(from, h().api.url + '/codec/decode', { payloads: [] })).status);
      statuses.push(
        (await postFrom(from, h().api.url + '/codec/decode', { payloads: [] }, { Authorization: `Bearer ${TOKEN}` }))
          .status,
      );
      expect(statuses).to.deep.equal([401, 401, 200]);
      const limited = await postFrom(
        from,
        h().api.url + '/codec/decode',
        { payloads: [] },
        {
          Authorization: `Bearer ${TOKEN}`,
        },
      );
      expect(limited.status).to.equal(429);
      expect(JSON.parse(limited.body).error).to.include({ type: 'rate_limit_error', code: 'rate_limit_exceeded' });
      expect(Number(limited.headers['retry-after'])).to.be.within(1, 60);
      // Another address is not limited by this one.
      const other = await postFrom(
        '127.0.0.1',
        h().api.url + '/codec/decode',
        { payloads: [] },
        {
          Authorization: `Bearer ${TOKEN}`,
        },
      );
      expect(other.status).to.equal(200);
    } finally {
      setConfig({ ...config(), codecRateLimit: saved.codecRateLimit });
    }
  });

  it('serves the codec only on the operator listener when CODEC_PORT is set', async () => {
    setConfig({ ...config(), codecPort: 0, codecHost: '127.0.0.1' });
    const api = await startApi({ temporal: h().env.client, port: 0, host: '127.0.0.1' });
    setConfig({ ...config(), codecPort: undefined });
    try {
      expect(api.codecUrl).to.match(/^http:\/\/127\.0\.0\.1:\d+$/);
      const [sealed] = await configuredCodec().encode([defaultPayloadConverter.toPayload({ hello: 'operator' })]);
      const onOperator = await postFrom(
        '127.0.0.1',
        api.codecUrl + '/codec/decode',
        { payloads: [toJson(sealed)] },
        {
          Authorization: `Bearer ${TOKEN}`,
        },
      );
      expect(onOperator.status).to.equal(200);
      expect(Buffer.from(JSON.parse(onOperator.body).payloads[0].data, 'base64').toString()).to.include('operator');
      // The public port has no /codec any more; the operator port has no /v1.
      const onPublic = await postFrom(
        '127.0.0.1',
        api.url + '/codec/decode',
        { payloads: [toJson(sealed)] },
        {
          Authorization: `Bearer ${TOKEN}`,
        },
      );
      expect(onPublic.status).to.equal(404);
      expect((await fetch(api.codecUrl + '/v1/agents')).status).to.equal(404);
      expect((await fetch(api.url + '/healthz')).status).to.equal(200);
    } finally {
      await api.close();
    }
  });

  describe('failures in the Temporal history', () => {
    it("keeps a model rejection's message and stack out of the raw history: the server sees `Encoded failure`", async function () {
      this.timeout(90_000);
      const t = await newTenant();
      const call = await placeCall(t, { simulation: { caller: ['FAIL 400'] } });
      const ended = await waitForCall(t.testKey, call.id, isEnded, 60_000);
      expect(ended).to.include({ status: 'failed', end_reason: 'error' });
      // The service itself still reads the message (decoded by its own converter).
      expect(ended.error.message).to.include('rejected');
      const raw = new Client({ connection: h().env.client.connection, namespace: config().temporalNamespace });
      const history = await raw.workflow.getHandle(call.id).fetchHistory();
      const failures = failuresOf(history.events);
      expect(failures.length, 'the rejected LLM request is a failure in the history').to.be.greaterThan(0);
      for (const f of failures) {
        expect(f.message, JSON.stringify(f).slice(0, 300)).to.equal('Encoded failure');
        expect(f.stackTrace ?? '').to.equal('');
        expect(meta(f.encodedAttributes, METADATA_ENCODING_KEY)).to.equal(ENCRYPTED_ENCODING);
      }
      const text = allText(history.events);
      for (const secret of ['fake failure', 'LLM request rejected', 'generateReply (', 'ApplicationFailure:'])
        expect(text).not.to.include(secret);
      // The operator (the codec) reads it back: message and stack trace.
      const [opened] = await configuredCodec().decode([failures[0].encodedAttributes]);
      const attrs = defaultPayloadConverter.fromPayload<{ message: string; stack_trace: string }>(opened);
      expect(attrs.message).to.include('fake failure');
      expect(attrs.stack_trace).to.include('ApplicationFailure');
      // …through the codec server as the Web UI asks for the failure's encoded attributes.
      const res = await postFrom(
        '127.0.0.1',
        h().api.url + '/codec/decode',
        { payloads: [toJson(failures[0].encodedAttributes)] },
        { Authorization: `Bearer ${TOKEN}`, 'X-Namespace': config().temporalNamespace },
      );
      expect(Buffer.from(JSON.parse(res.body).payloads[0].data, 'base64').toString()).to.include('fake failure');
    });
  });

  describe('AES-GCM', () => {
    const plain = defaultPayloadConverter.toPayload({ secret: 'the number +14155550199' });

    it('refuses data whose GCM tag is truncated, or too short to hold an IV and a full 16-byte tag', async () => {
      const [sealed] = await configuredCodec().encode([plain]);
      const data = Buffer.from(sealed.data!);
      for (const cut of [1, 4, 8]) {
        const truncated = { ...sealed, data: new Uint8Array(data.subarray(0, data.length - cut)) };
        let error = '';
        await configuredCodec()
          .decode([truncated])
          .catch((err: Error) => (error = err.message));
        expect(error, `tag cut by ${cut}`).to.match(/did not authenticate \(altered, truncated/);
      }
      // 12 bytes: the old decoder read a 4-byte tag out of the IV's bytes; 27: no room for a full tag.
      for (const length of [12, 20, 27]) {
        const short = { ...sealed, data: new Uint8Array(data.subarray(0, length)) };
        let error = '';
        await configuredCodec()
          .decode([short])
          .catch((err: Error) => (error = err.message));
        expect(error, `${length} bytes`).to.match(/shorter than its IV and full 16-byte tag/);
      }
      expect(defaultPayloadConverter.fromPayload((await configuredCodec().decode([sealed]))[0])).to.deep.equal({
        secret: 'the number +14155550199',
      });
    });

    it('binds a payload to its namespace: moved to another namespace it does not decode (codec server included)', async () => {
      const [sealed] = await configuredCodec().encode([plain]);
      const current = config();
      setConfig({ ...current, temporalNamespace: 'another-namespace' });
      let error = '';
      try {
        await configuredCodec()
          .decode([sealed])
          .catch((err: Error) => (error = err.message));
      } finally {
        setConfig(current);
      }
      expect(error).to.match(/sealed for another namespace than "another-namespace"/);
      expect(meta(sealed, CIPHER_METADATA)).to.equal(CIPHER_V2); // the format that binds the namespace
      // The Web UI names the namespace it shows: another one gets the payload back still sealed.
      const res = await postFrom(
        '127.0.0.1',
        h().api.url + '/codec/decode',
        { payloads: [toJson(sealed)] },
        {
          Authorization: `Bearer ${TOKEN}`,
          'X-Namespace': 'another-namespace',
        },
      );
      expect(res.status).to.equal(200);
      expect(JSON.parse(res.body).payloads[0]).to.deep.equal(toJson(sealed));
      const own = await postFrom(
        '127.0.0.1',
        h().api.url + '/codec/decode',
        { payloads: [toJson(sealed)] },
        {
          Authorization: `Bearer ${TOKEN}`,
          'X-Namespace': current.temporalNamespace,
        },
      );
      expect(Buffer.from(JSON.parse(own.body).payloads[0].data, 'base64').toString()).to.include('+14155550199');
    });

    it('binds a payload to its key id, and a v2 payload relabelled as v1 does not open (no downgrade)', async () => {
      const a = derivePayloadKey('key-a-0123456789abcdef0123456789abcdef');
      const b = derivePayloadKey('key-b-0123456789abcdef0123456789abcdef');
      const ns = config().temporalNamespace;
      const codec = new EncryptionCodec(a, [b], ns);
      const [sealed] = await codec.encode([plain]);
      const errorOf = (p: Payload) =>
        codec.decode([p]).then(
          () => '',
          (err: Error) => err.message,
        );
      expect(await errorOf(relabel(sealed, KEY_ID_METADATA, b.id))).to.match(/did not authenticate/);
      expect(await errorOf(relabel(sealed, CIPHER_METADATA, CIPHER_V1))).to.match(/did not authenticate/);
      expect(await errorOf(relabel(sealed, CIPHER_METADATA, 'AES-128-CBC'))).to.match(/unknown format/);
      expect(await errorOf(sealed)).to.equal('');
    });

    it('still decodes payloads sealed in the earlier format (additional data: the key id alone)', async () => {
      // Sealed as the codec did before v2: no namespace in the additional data, `encryption-cipher: AES-256-GCM`.
      const key = derivePayloadKey(config().secretsKey!);
      const iv = crypto.randomBytes(12);
      const cipher = crypto.createCipheriv('aes-256-gcm', key.key, iv);
      cipher.setAAD(Buffer.from(key.id));
      const body = temporal.api.common.v1.Payload.encode(plain).finish();
      const v1: Payload = {
        metadata: {
          [METADATA_ENCODING_KEY]: new TextEncoder().encode(ENCRYPTED_ENCODING),
          [KEY_ID_METADATA]: new TextEncoder().encode(key.id),
          [CIPHER_METADATA]: new TextEncoder().encode(CIPHER_V1),
        },
        data: new Uint8Array(Buffer.concat([iv, cipher.update(body), cipher.final(), cipher.getAuthTag()])),
      };
      const [opened] = await configuredCodec().decode([v1]);
      expect(defaultPayloadConverter.fromPayload(opened)).to.deep.equal({ secret: 'the number +14155550199' });
      // The replay test decodes the recorded histories' v1 payloads the same way (test/replay/replay.test.ts).
    });
  });
});
