/**
 * Nothing personal in plain text at the Temporal server (issue 36 item 5): a simulated call and a
 * WhatsApp conversation with a distinctive number, name and words; their raw histories, read from the
 * server without the codec, hold none of them (payloads, memos, search attributes, summaries, workflow
 * ids); the codec server decodes them for the Web UI (the request made as the UI makes it, CORS
 * included) and refuses a request without the operator token; a history recorded with the codec replays;
 * a payload sealed under an earlier key still decodes after the key rotates.
 */
import { expect } from 'chai';
import { Client } from '@temporalio/client';
import { defaultPayloadConverter, type Payload } from '@temporalio/common';
import { Worker } from '@temporalio/worker';
import { config, setConfig } from '../../src/config';
import { openSecret, sealSecret } from '../../src/secrets';
import {
  configuredCodec,
  dataConverter,
  derivePayloadKey,
  EncryptionCodec,
  ENCRYPTED_ENCODING,
  KEY_ID_METADATA,
} from '../../src/platform/payload-codec';
import { h, newTenant, request, waitForCall } from '../support/harness';
import { customerNumber, eventually, inbound, waitForMessages } from '../support/conversations';

const TOKEN = 'test-codec-token-0123456789abcdef01234567';
const UI_ORIGIN = 'http://localhost:8233';
const NAME = 'Zebulon Quartermaine';
const WORDS = 'marmalade octopus passphrase';

/** Every string and every byte string (as UTF-8) in a protobuf message, joined: what the server holds. */
function allText(value: unknown, out: string[] = [], depth = 0): string[] {
  if (depth > 40 || value == null) return out;
  if (typeof value === 'string') out.push(value);
  else if (value instanceof Uint8Array) out.push(Buffer.from(value).toString('utf8'));
  else if (Array.isArray(value)) value.forEach((v) => allText(v, out, depth + 1));
  else if (typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      out.push(k);
      allText(v, out, depth + 1);
    }
  }
  return out;
}

/** Every payload of a raw history (the `{metadata, data}` objects), walking the events. */
function payloadsOf(value: unknown, out: Payload[] = [], depth = 0): Payload[] {
  if (depth > 40 || value == null || typeof value !== 'object' || value instanceof Uint8Array) return out;
  if (Array.isArray(value)) {
    value.forEach((v) => payloadsOf(v, out, depth + 1));
    return out;
  }
  const o = value as Record<string, unknown>;
  if (o.metadata && typeof o.metadata === 'object' && o.data instanceof Uint8Array) out.push(o as Payload);
  // Search attributes stay readable by the server (it indexes them), and so does a local activity marker's
  // `data` (the SDK's own record: activity type, attempt, times) and a patch marker's details (the SDK's
  // record of a `patched()` id, src/shared/deployments.ts PATCHES); the text check covers them all.
  else
    for (const [k, v] of Object.entries(o)) {
      if (k === 'searchAttributes') continue;
      if (k === 'details' && o.markerName === 'core_patch') continue;
      if (k === 'details' && 'markerName' in o) {
        const { data: _sdkRecord, ...rest } = v as Record<string, unknown>;
        payloadsOf(rest, out, depth + 1);
      } else payloadsOf(v, out, depth + 1);
    }
  return out;
}

const b64 = (b: Uint8Array | null | undefined) => Buffer.from(b ?? new Uint8Array()).toString('base64');

/** A payload in proto3 JSON, as the Web UI sends it to a codec server. */
const toJson = (p: Payload) => ({
  metadata: Object.fromEntries(Object.entries(p.metadata ?? {}).map(([k, v]) => [k, b64(v)])),
  data: b64(p.data),
});

/** `POST <path>` as the Temporal Web UI sends it (fetch with credentials, its headers, proto3 JSON). */
function codecRequest(path: string, payloads: unknown[], headers: Record<string, string> = {}) {
  return fetch(h().api.url + path, {
    method: 'POST',
    headers: {
      'Content-Type': 'application/json',
      'X-Namespace': config().temporalNamespace,
      Origin: UI_ORIGIN,
      ...headers,
    },
    body: JSON.stringify({ payloads }),
  });
}

describe('encrypted workflow payloads and the codec server (issue 36 item 5)', function () {
  this.timeout(180_000);
  let t: Awaited<ReturnType<typeof newTenant>>;
  const number = customerNumber();
  const chatNumber = customerNumber();
  let callId: string;
  let rawClient: Client;
  let saved: ReturnType<typeof config>;

  before(async () => {
    saved = config();
    setConfig({ ...saved, codecToken: TOKEN });
    t = await newTenant({ first_message: 'Hello from the test agent.' });
    // A client without the codec: what anyone reading the server sees.
    rawClient = new Client({ connection: h().env.client.connection, namespace: config().temporalNamespace });
    const res = await request('POST', '/v1/calls', {
      key: t.testKey,
      body: {
        to: number,
        agent_id: t.agentId,
        metadata: { customer_name: NAME },
        simulation: { caller: [`Hello, this is ${NAME}`, `My ${WORDS} is here`, 'TOOL end_call {}'] },
      },
    });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    callId = res.body.id;
    const chat = await inbound(t.testKey, { channel: 'whatsapp', from: chatNumber, text: `I am ${NAME}, ${WORDS}` });
    expect(chat.status, JSON.stringify(chat.body)).to.equal(200);
    await waitForCall(t.testKey, callId, undefined, 60_000);
    await waitForMessages(t.testKey, chat.body.conversation_id, 2, undefined, 60_000);
  });

  after(() => setConfig(saved));

  /** The organization's runs, as the server lists them (visibility), and each one's raw history. */
  async function rawRuns() {
    const runs = await eventually(async () => {
      // Listed through the raw service: the client's `list` would decode each run's memo, which the worker
      // sealed (a memo the workflow upserts is a workflow payload), and a client without the codec cannot.
      const { executions } = await rawClient.workflowService.listWorkflowExecutions({
        namespace: config().temporalNamespace,
        query: `OrgId = '${t.orgId}'`,
        pageSize: 1000,
      });
      const list = executions.map((e) => ({
        type: e.type?.name ?? '',
        workflowId: e.execution?.workflowId ?? '',
        runId: e.execution?.runId ?? '',
        searchAttributes: e.searchAttributes,
        memo: e.memo,
      }));
      return list.some((r) => r.type === 'conversationWorkflow') && list.some((r) => r.workflowId === callId)
        ? list
        : null;
    }, 'the call and conversation runs listed');
    return Promise.all(
      runs.map(async (r) => ({
        run: r,
        history: await rawClient.workflow.getHandle(r.workflowId, r.runId).fetchHistory(),
        described: await rawClient.workflowService.describeWorkflowExecution({
          namespace: config().temporalNamespace,
          execution: { workflowId: r.workflowId, runId: r.runId },
        }),
      })),
    );
  }

  it('keeps the number, the name and the words out of every raw history, id, memo and search attribute', async () => {
    const runs = await rawRuns();
    expect(runs.map((r) => r.run.type)).to.include.members(['callWorkflow', 'conversationWorkflow']);
    const digits = number.slice(1);
    for (const { run, history, described } of runs) {
      const text = [
        run.workflowId,
        ...allText(history.events),
        ...allText(described.workflowExecutionInfo),
        ...allText(described.executionConfig),
        ...allText(run.searchAttributes),
        ...allText(run.memo),
      ].join('\n');
      for (const secret of [number, digits, chatNumber, chatNumber.slice(1), NAME, 'Zebulon', WORDS, 'marmalade'])
        expect(text, `${run.type} ${run.workflowId} holds "${secret}"`).not.to.include(secret);
      // Every payload is sealed (the encrypted encoding), none readable as JSON.
      const payloads = payloadsOf(history.events);
      expect(payloads.length, run.workflowId).to.be.greaterThan(0);
      for (const p of payloads)
        expect(
          Buffer.from(p.metadata!.encoding!).toString(),
          `${run.workflowId}: ${Buffer.from(p.data!).toString().slice(0, 200)}`,
        ).to.equal(ENCRYPTED_ENCODING);
    }
    // The conversation's workflow id is a keyed hash of the number.
    const conv = runs.find((r) => r.run.type === 'conversationWorkflow')!;
    expect(conv.run.workflowId).to.match(/^conv:org_\w+:test:whatsapp:n_[\w-]{43}$/);
  });

  it('decodes the payloads through POST /codec/decode as the Web UI asks, with CORS for its origin', async () => {
    const history = await rawClient.workflow.getHandle(callId).fetchHistory();
    // The run's input first (the UI's input pane), then every other payload of the history.
    const input0 = history.events![0].workflowExecutionStartedEventAttributes!.input!.payloads![0] as Payload;
    const sealed = [input0, ...payloadsOf(history.events).filter((p) => p !== input0)].map(toJson);
    // The preflight the browser sends before the UI's POST (credentials, custom headers).
    const preflight = await fetch(h().api.url + '/codec/decode', {
      method: 'OPTIONS',
      headers: {
        Origin: UI_ORIGIN,
        'Access-Control-Request-Method': 'POST',
        'Access-Control-Request-Headers': 'authorization,content-type,x-namespace',
      },
    });
    expect(preflight.status).to.be.oneOf([200, 204]);
    expect(preflight.headers.get('access-control-allow-origin')).to.equal(UI_ORIGIN);
    expect(preflight.headers.get('access-control-allow-credentials')).to.equal('true');
    const allowed = (preflight.headers.get('access-control-allow-headers') ?? '').toLowerCase();
    for (const header of ['authorization', 'x-namespace', 'content-type']) expect(allowed).to.include(header);

    const res = await codecRequest('/codec/decode', sealed, { Authorization: `Bearer ${TOKEN}` });
    expect(res.status).to.equal(200);
    expect(res.headers.get('access-control-allow-origin')).to.equal(UI_ORIGIN);
    const body = (await res.json()) as { payloads: { metadata: Record<string, string>; data: string }[] };
    expect(body.payloads).to.have.length(sealed.length);
    const decoded = body.payloads
      .map(
        (p) => Buffer.from(p.metadata.encoding ?? '', 'base64').toString() + Buffer.from(p.data, 'base64').toString(),
      )
      .join('\n');
    expect(decoded).to.include(number).and.to.include(NAME).and.to.include(WORDS).and.to.include('json/plain');
    expect(decoded).not.to.include(ENCRYPTED_ENCODING);
    // The input decodes to the call's workflow input, as the UI's input pane shows it.
    const input = defaultPayloadConverter.fromPayload<{ to: string }>({
      metadata: Object.fromEntries(
        Object.entries(body.payloads[0].metadata).map(([k, v]) => [k, Buffer.from(v, 'base64')]),
      ),
      data: Buffer.from(body.payloads[0].data, 'base64'),
    });
    expect(input.to).to.equal(number);

    // The endpoint may carry the token instead (a UI that sends no Authorization header).
    const byPath = await codecRequest(`/codec/${TOKEN}/decode`, sealed.slice(0, 1));
    expect(byPath.status).to.equal(200);
    expect(((await byPath.json()) as any).payloads[0]).to.deep.equal(body.payloads[0]);
  });

  it('refuses the codec server without the operator token: 401', async () => {
    const sealed = payloadsOf((await rawClient.workflow.getHandle(callId).fetchHistory()).events)
      .slice(0, 1)
      .map(toJson);
    for (const headers of [
      {} as Record<string, string>,
      { Authorization: 'Bearer wrong-token' },
      { Authorization: `Bearer ${t.testKey}` },
    ]) {
      const res = await codecRequest('/codec/decode', sealed, headers);
      expect(res.status).to.equal(401);
      const body = (await res.json()) as any;
      expect(body.error).to.include({ type: 'authentication_error', code: 'codec_token_invalid' });
      expect(JSON.stringify(body)).not.to.include(number);
    }
    expect((await codecRequest(`/codec/wrong-token/decode`, sealed)).status).to.equal(401);
    expect((await codecRequest('/codec/encode', sealed)).status).to.equal(401);
    // Unset, the token is refused whatever is sent.
    setConfig({ ...config(), codecToken: undefined });
    try {
      expect((await codecRequest('/codec/decode', sealed, { Authorization: 'Bearer ' })).status).to.equal(401);
    } finally {
      setConfig({ ...config(), codecToken: TOKEN });
    }
  });

  it('encodes through POST /codec/encode, and decodes back', async () => {
    const plain = toJson(defaultPayloadConverter.toPayload({ hello: NAME }));
    const enc = await codecRequest('/codec/encode', [plain], { Authorization: `Bearer ${TOKEN}` });
    expect(enc.status).to.equal(200);
    const sealed = ((await enc.json()) as any).payloads;
    expect(Buffer.from(sealed[0].metadata.encoding, 'base64').toString()).to.equal(ENCRYPTED_ENCODING);
    expect(Buffer.from(sealed[0].data, 'base64').toString()).not.to.include(NAME);
    const dec = await codecRequest('/codec/decode', sealed, { Authorization: `Bearer ${TOKEN}` });
    expect(((await dec.json()) as any).payloads[0]).to.deep.equal(plain);
  });

  it('replays a history recorded with the codec (the replay test covers those recorded before it)', async () => {
    const history = await rawClient.workflow.getHandle(callId).fetchHistory();
    await Worker.runReplayHistory({ workflowBundle: h().bundle, dataConverter, replayName: 'codec-replay' }, history);
  });

  it('decodes a payload sealed under an earlier key after SECRETS_KEY rotates', async () => {
    // The earlier key seals; the current one (the worker's, left alone) is what the service encodes with now.
    const earlier = 'earlier-secrets-key-fedcba9876543210fedcba9876543210';
    const [sealed] = await new EncryptionCodec(derivePayloadKey(earlier)).encode([
      defaultPayloadConverter.toPayload({ number }),
    ]);
    const earlierId = Buffer.from(sealed.metadata![KEY_ID_METADATA]!).toString();
    const [fresh] = await configuredCodec().encode([defaultPayloadConverter.toPayload({ number })]);
    expect(Buffer.from(fresh.metadata![KEY_ID_METADATA]!).toString()).not.to.equal(earlierId);
    const current = config();
    // A stored secret sealed under the earlier key (set and restored synchronously: nothing else runs between).
    setConfig({ ...current, secretsKey: earlier });
    const stored = sealSecret('whsec_before_rotation');
    setConfig(current);
    expect(() => openSecret(stored)).to.throw();
    // Without the earlier key, it does not decode (the codec server answers it still sealed).
    let failed = false;
    await configuredCodec()
      .decode([sealed])
      .catch(() => (failed = true));
    expect(failed).to.equal(true);
    try {
      setConfig({ ...current, secretsKeyPrevious: [earlier] });
      expect(openSecret(stored)).to.equal('whsec_before_rotation');
      const [opened] = await configuredCodec().decode([sealed]);
      expect(defaultPayloadConverter.fromPayload(opened)).to.deep.equal({ number });
      // Through the codec server too (the UI reading an old run).
      const res = await codecRequest('/codec/decode', [toJson(sealed)], { Authorization: `Bearer ${TOKEN}` });
      const data = Buffer.from(((await res.json()) as any).payloads[0].data, 'base64').toString();
      expect(data).to.include(number);
    } finally {
      setConfig(current);
    }
  });
});
