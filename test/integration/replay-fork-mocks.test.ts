/**
 * `fork` replays beyond the recorded results (src/services/replay-forks.ts, src/shared/tool-mocks.ts),
 * against the real Temporal dev server and FerretDB, the loopback LLM (its persona plays the
 * `FAKE_PERSONA:` script a recorded caller line carries) and a loopback tool server:
 * - a tool's `mock` (`POST /v1/tools`): validated (400 naming the place), stored, shown, cleared;
 * - a fork replay where new arguments hit a rule, one the default, one a tool with no default (made up):
 *   each tool turn marked `recorded`, `mock_rule` or `generated`, the tool server asked nothing;
 * - a live key's fork replay of a live agent's calls: the forked calls are test-mode calls, simulated,
 *   never dialed, metered in test mode only (no live usage row), the live tools' `mock` rules served,
 *   the live agent's knowledge searched;
 * - the erasure of the recorded call's caller erases the forked calls made of it.
 * With RECORD_HISTORIES=1 the forked call's history is written to test/replay/histories/.
 */
import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { historyToJSON } from '@temporalio/common/lib/proto-utils';
import { Call, CallTurn, callTurnId } from '../../src/models/calls';
import { UsageRecord } from '../../src/models/usage';
import { newId } from '../../src/shared/ids';
import { h, newTenant, request, waitForCall } from '../support/harness';
import { startHttpsReceiver, type HttpsReceiver } from '../support/https-receiver';
import { createHttpTool, LOOKUP, useTools } from '../support/tools';
import { eventually, type Tenant } from '../support/webhooks';

/** With RECORD_HISTORIES=1: writes workflow `workflowId`'s history (once closed) to test/replay/histories/<name>.json. */
async function keepHistory(workflowId: string, name: string): Promise<void> {
  if (process.env.RECORD_HISTORIES !== '1') return;
  const handle = h().env.client.workflow.getHandle(workflowId);
  await handle.result();
  const history = JSON.parse(historyToJSON(await handle.fetchHistory()));
  const file = path.resolve(__dirname, '../../../test/replay/histories', `${name}.json`);
  fs.writeFileSync(file, JSON.stringify(history, null, 1) + '\n');
}

/** The recorded caller: one tool call, then (as the persona, from turn 2) three calls with new arguments. */
const LINES = [
  'TOOLONCE lookup_order {"order_id":"A17"}',
  'FAKE_PERSONA: unused | TOOLONCE lookup_order {"order_id":"R1"} | TOOLONCE lookup_order {"order_id":"Z9"} | TOOLONCE track_parcel {"order_id":"P5"} | BYE Bye now.',
];

const LOOKUP_MOCK = { rules: [{ when: { order_id: 'R1' }, result: { status: 'ruled' } }], default: 'No such order.' };
const TRACK_MOCK = { rules: [{ when: { order_id: 'P1' }, result: { parcel: 'at the depot' } }] };

/** Polls the replay until `completed`. */
async function waitForReplay(key: string, agentId: string, id: string): Promise<any> {
  return eventually(
    async () => {
      const res = await request('GET', `/v1/agents/${agentId}/replays/${id}`, { key });
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      return res.body.status === 'completed' ? res.body : undefined;
    },
    `replay ${id} completed`,
    150_000,
  );
}

/**
 * A live call as the store holds it once ended, made of recorded test call `callId`'s documents: the call
 * and its turns copied in live mode, as a call of live agent `agentId` at `version` to `to`; answers its id.
 */
async function copyAsLiveCall(callId: string, agentId: string, version: number, to: string): Promise<string> {
  const liveCallId = newId('call');
  const doc = (await Call.findById(callId).lean())!;
  const live = { ...doc, _id: liveCallId, livemode: true, agent_id: agentId, agent_version: version, to };
  await Call.collection.insertOne(live as never);
  const turns = await CallTurn.find({ call_id: callId }).lean();
  await CallTurn.collection.insertMany(
    turns.map((x) => ({ ...x, _id: callTurnId(liveCallId, x.seq), call_id: liveCallId })) as never[],
  );
  return liveCallId;
}

/** The tool turns of call `callId`, in order. */
const toolTurns = (callId: string) => CallTurn.find({ call_id: callId, role: 'tool' }).sort({ seq: 1 }).lean();

describe('fork replays: tool mock rules, live keys, metering and erasure', function () {
  this.timeout(300_000);
  let t: Tenant;
  let receiver: HttpsReceiver;
  let recordedId: string;
  let lookupId: string;

  before(async () => {
    t = await newTenant({ instructions: 'You sell shoes.' });
    receiver = await startHttpsReceiver();
    receiver.route('/orders', () => ({ status: 200, body: JSON.stringify({ status: 'shipped' }) }));
    receiver.route('/parcels', () => ({ status: 200, body: JSON.stringify({ parcel: 'moving' }) }));
    lookupId = (await createHttpTool(t, receiver, 'lookup_order', '/orders', { mock: LOOKUP_MOCK })).id;
    const track = await createHttpTool(t, receiver, 'track_parcel', '/parcels', { mock: TRACK_MOCK });
    await useTools(t, [lookupId, track.id]);
    const res = await request('POST', '/v1/calls', {
      key: t.testKey,
      body: { to: '+14155550300', agent_id: t.agentId, simulation: { caller: LINES } },
    });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    recordedId = res.body.id;
    expect((await waitForCall(t.testKey, recordedId, undefined, 60_000)).status).to.equal('completed');
  });
  after(async () => receiver?.close());

  it("a tool's mock: validated, stored, shown and cleared", async () => {
    const shown = await request('GET', `/v1/tools/${lookupId}`, { key: t.testKey });
    expect(shown.body.mock).to.deep.equal(LOOKUP_MOCK);
    const post = (body: unknown) => request('POST', '/v1/tools', { key: t.testKey, body });
    const base = { type: 'http', name: 'other', description: 'x', parameters: LOOKUP, url: receiver.url('/o') };
    const unknownArg = await post({
      ...base,
      mock: { rules: [LOOKUP_MOCK.rules[0], { when: { nope: 1 }, result: 1 }] },
    });
    expect(unknownArg.status).to.equal(400);
    expect(unknownArg.body.error).to.include({ type: 'invalid_request_error', param: 'mock.rules[1].when.nope' });
    const emptyWhen = await post({ ...base, mock: { rules: [{ when: {}, result: 1 }] } });
    expect(emptyWhen.status).to.equal(400);
    expect(emptyWhen.body.error.param).to.equal('mock.rules.0.when'); // the validation library's path
    const noResult = await post({ ...base, mock: { rules: [{ when: { order_id: 'A1' } }] } });
    expect(noResult.status).to.equal(400);
    expect(noResult.body.error.param).to.equal('mock.rules.0.result');
    const many = await post({
      ...base,
      mock: { rules: Array.from({ length: 51 }, () => ({ when: { order_id: 'A1' }, result: 1 })) },
    });
    expect(many.status).to.equal(400);
    expect(many.body.error.param).to.equal('mock.rules');
    const big = await post({ ...base, mock: { default: 'x'.repeat(16_001) } });
    expect(big.status).to.equal(400);
    expect(big.body.error.param).to.equal('mock');
    expect((await request('GET', '/v1/tools?limit=100', { key: t.testKey })).body.data).to.have.length(2);
    // An update of the parameters is checked against the stored mock; null clears the mock.
    const other = await post({ ...base, mock: { rules: [{ when: { order_id: 'A1' }, result: 'ok' }] } });
    expect(other.status, JSON.stringify(other.body)).to.equal(200);
    const renamed = await request('POST', `/v1/tools/${other.body.id}`, {
      key: t.testKey,
      body: { parameters: { type: 'object', properties: { id: { type: 'string' } } } },
    });
    expect(renamed.status).to.equal(400);
    expect(renamed.body.error.param).to.equal('mock.rules[0].when.order_id');
    const cleared = await request('POST', `/v1/tools/${other.body.id}`, { key: t.testKey, body: { mock: null } });
    expect(cleared.status, JSON.stringify(cleared.body)).to.equal(200);
    expect(cleared.body.mock).to.equal(null);
    await request('DELETE', `/v1/tools/${other.body.id}`, { key: t.testKey });
  });

  it('new arguments: a rule, the default, a made-up result; the tool server asked nothing', async () => {
    expect(receiver.at('/orders')).to.have.length(1);
    expect(receiver.at('/parcels')).to.have.length(0);
    const version = (await request('GET', `/v1/agents/${t.agentId}`, { key: t.testKey })).body.version;
    const created = await request('POST', `/v1/agents/${t.agentId}/replays`, {
      key: t.testKey,
      body: { version, mode: 'fork', from_turn: 2, call_ids: [recordedId] },
    });
    expect(created.status, JSON.stringify(created.body)).to.equal(200);
    const replay = await waitForReplay(t.testKey, t.agentId, created.body.id);
    const [c] = replay.calls;
    expect(c.status, JSON.stringify(c)).to.equal('completed');
    const turns = await toolTurns(c.forked_call_id);
    expect(turns.map((x) => [x.tool_name, x.tool_arguments_json, x.tool_mocked, x.text])).to.deep.equal([
      ['lookup_order', '{"order_id":"A17"}', 'recorded', JSON.stringify({ status: 'shipped' })],
      ['lookup_order', '{"order_id":"R1"}', 'mock_rule', JSON.stringify({ status: 'ruled' })],
      ['lookup_order', '{"order_id":"Z9"}', 'mock_rule', 'No such order.'],
      ['track_parcel', '{"order_id":"P5"}', 'generated', turns[3]?.text],
    ]);
    expect(turns[3].text).to.match(/^You said: /); // the loopback model's made-up result
    expect(c.summary.fork.tool_results).to.deep.equal({ recorded: 1, mock_rule: 2, generated: 1 });
    expect(receiver.at('/orders'), 'no request to the tool server').to.have.length(1);
    expect(receiver.at('/parcels')).to.have.length(0);
    await keepHistory(c.forked_call_id, 'call-v030-fork-mock-rules');
  });

  it("a live key's fork: test-mode calls, never dialed, metered in test mode only", async () => {
    const live = await request('POST', '/v1/agents', {
      key: t.liveKey,
      body: { name: 'Live', instructions: 'You sell shoes.' },
    });
    expect(live.status, JSON.stringify(live.body)).to.equal(200);
    const tool = await request('POST', '/v1/tools', {
      key: t.liveKey,
      body: {
        type: 'http',
        name: 'lookup_order',
        description: 'Looks up an order.',
        parameters: LOOKUP,
        url: receiver.url('/orders'),
        mock: LOOKUP_MOCK,
      },
    });
    expect(tool.status, JSON.stringify(tool.body)).to.equal(200);
    const agent = await request('POST', `/v1/agents/${live.body.id}`, {
      key: t.liveKey,
      body: { tool_ids: [tool.body.id] },
    });
    expect(agent.status, JSON.stringify(agent.body)).to.equal(200);
    const liveCallId = await copyAsLiveCall(recordedId, live.body.id, agent.body.version, '+14155550301');
    const created = await request('POST', `/v1/agents/${live.body.id}/replays`, {
      key: t.liveKey,
      body: { version: agent.body.version, mode: 'fork', from_turn: 2, call_ids: [liveCallId] },
    });
    expect(created.status, JSON.stringify(created.body)).to.equal(200);
    expect(created.body).to.include({ livemode: true, mode: 'fork' });
    const replay = await waitForReplay(t.liveKey, live.body.id, created.body.id);
    const forkedId = replay.calls[0].forked_call_id;
    expect(replay.calls[0].status, JSON.stringify(replay.calls[0])).to.equal('completed');
    const forked = await Call.findById(forkedId).lean();
    expect(forked).to.deep.include({ livemode: false, simulated: true, provider_call_sid: null, status: 'completed' });
    expect((await request('GET', `/v1/calls/${forkedId}`, { key: t.liveKey })).status).to.equal(404);
    expect((await request('GET', `/v1/calls/${forkedId}`, { key: t.testKey })).body.livemode).to.equal(false);
    // The live agent's tool and its mock rules served (read in live mode), never its server; it has no
    // track_parcel, so that call is a tool error the model is told, not a mocked call.
    expect((await toolTurns(forkedId)).map((x) => x.tool_mocked ?? null)).to.deep.equal([
      'recorded',
      'mock_rule',
      'mock_rule',
      null,
    ]);
    expect(receiver.at('/orders')).to.have.length(1);
    // Metered as test-mode work: rows of the forked call, none of them live.
    const rows = await UsageRecord.find({ subject_id: forkedId }).lean();
    expect(rows.map((r) => r.kind)).to.include.members(['call', 'llm_request']);
    expect(rows.filter((r) => r.livemode)).to.deep.equal([]);
    const usage = await request('GET', '/v1/usage', { key: t.liveKey });
    expect(usage.status, JSON.stringify(usage.body)).to.equal(200);
    expect(usage.body.totals.calls.count).to.equal(0);
  });

  it("a live key's fork searches the live agent's knowledge, not the test mode's", async () => {
    const live = await request('POST', '/v1/agents', {
      key: t.liveKey,
      body: { name: 'Live knowledge', instructions: 'You sell shoes.' },
    });
    expect(live.status, JSON.stringify(live.body)).to.equal(200);
    const doc = await request('POST', '/v1/knowledge', {
      key: t.liveKey,
      body: { agent_id: live.body.id, title: 'Laces', text: 'Our laces are woven from recycled ocean nylon.' },
    });
    expect(doc.status, JSON.stringify(doc.body)).to.equal(200);
    // The recorded call: a test call whose caller, from turn 2, asks the assistant to search.
    const recorded = await request('POST', '/v1/calls', {
      key: t.testKey,
      body: {
        to: '+14155550302',
        agent_id: t.agentId,
        simulation: {
          caller: ['Hello.', 'FAKE_PERSONA: unused | TOOLONCE search_knowledge {"query":"laces nylon"} | BYE Bye now.'],
        },
      },
    });
    expect(recorded.status, JSON.stringify(recorded.body)).to.equal(200);
    expect((await waitForCall(t.testKey, recorded.body.id, undefined, 60_000)).status).to.equal('completed');
    const liveCallId = await copyAsLiveCall(recorded.body.id, live.body.id, live.body.version, '+14155550303');
    const created = await request('POST', `/v1/agents/${live.body.id}/replays`, {
      key: t.liveKey,
      body: { version: live.body.version, mode: 'fork', from_turn: 2, call_ids: [liveCallId] },
    });
    expect(created.status, JSON.stringify(created.body)).to.equal(200);
    const replay = await waitForReplay(t.liveKey, live.body.id, created.body.id);
    const forkedId = replay.calls[0].forked_call_id;
    expect((await Call.findById(forkedId).lean())?.livemode).to.equal(false);
    // The forked (test-mode) call's search found the live document.
    const search = (await toolTurns(forkedId)).find((x) => x.tool_name === 'search_knowledge');
    expect(search, 'the forked call searched').to.not.equal(undefined);
    expect(search!.text).to.contain('recycled ocean nylon');
    const found = JSON.parse(search!.knowledge_json ?? '[]') as { document: string }[];
    expect(found.map((k) => k.document)).to.deep.equal([doc.body.id]);
  });

  it("erasure of the recorded call's caller erases the calls forked from it", async () => {
    const done = (await request('GET', `/v1/agents/${t.agentId}/replays`, { key: t.testKey })).body.data;
    const forkedId = done[0].calls[0].forked_call_id;
    expect(await CallTurn.countDocuments({ call_id: forkedId })).to.be.greaterThan(0);
    const erase = await request('POST', '/v1/contacts/erase', { key: t.testKey, body: { phone: '+14155550300' } });
    expect(erase.status, JSON.stringify(erase.body)).to.equal(200);
    const erasure = await eventually(async () => {
      const e = await request('GET', `/v1/erasures/${erase.body.id}`, { key: t.testKey });
      return e.body.status === 'completed' ? e.body : undefined;
    }, 'erasure completed');
    expect(erasure.counts.calls).to.equal(2); // the recorded call and its fork
    expect(await CallTurn.countDocuments({ call_id: forkedId }), "the fork's transcript").to.equal(0);
    expect(await CallTurn.countDocuments({ call_id: recordedId })).to.equal(0);
    const forked = await request('GET', `/v1/calls/${forkedId}`, { key: t.testKey });
    expect(forked.body.metadata).to.deep.equal({});
    const after = await request('GET', `/v1/agents/${t.agentId}/replays/${done[0].id}`, { key: t.testKey });
    expect(after.body.calls[0].erased).to.equal(true);
  });
});
