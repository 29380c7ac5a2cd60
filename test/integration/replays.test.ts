/**
 * Replays of recorded calls against agent versions (src/services/replays.ts), against the real Temporal
 * dev server and FerretDB, the loopback LLM (test/support/fake-llm.ts: a line naming a discount is
 * answered with one unless the instructions say "never offer a discount") and a loopback tool server.
 * Ten recorded test calls, a draft version that never offers a discount: a `turn` replay marks exactly
 * the turns where a discount was offered as changed, serves the recorded tool results (the tool server
 * gets no request), reports totals and emits `replay.completed` once; a replay of the published version
 * by filter and sample changes nothing; bad input; an erased caller's calls are not replayable and vanish
 * from finished replays. With RECORD_HISTORIES=1 the replay's and one call's workflow histories are
 * written to test/replay/histories/.
 */
import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { historyToJSON } from '@temporalio/common/lib/proto-utils';
import { UsageRecord } from '../../src/models/usage';
import { ReplayTurn } from '../../src/models/replays';
import { h, newTenant, request, waitForCall } from '../support/harness';
import { startHttpsReceiver, type HttpsReceiver } from '../support/https-receiver';
import { createHttpTool, useTools } from '../support/tools';
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

/** The caller's lines of the ten recorded calls: four ask for a discount (one after a tool call). */
const SCRIPTS: { to: string; lines: string[] }[] = [
  { to: '+14155550100', lines: ['Hello there.', 'Is there a discount for me?', 'Thanks, bye.'] },
  { to: '+14155550101', lines: ['TOOLONCE lookup_order {"order_id":"A17"}', 'Any discount on that order?'] },
  { to: '+14155550102', lines: ['When do you open?', 'Thanks.'] },
  { to: '+14155550103', lines: ['Do you have a discount for students?'] },
  { to: '+14155550104', lines: ['Hello.', 'Where are you?'] },
  { to: '+14155550105', lines: ['Can I pay by card?'] },
  { to: '+14155550106', lines: ['I want a discount please.', 'Great.'] },
  { to: '+14155550107', lines: ['Is the shop open on Sunday?'] },
  { to: '+14155550108', lines: ['TOOLONCE lookup_order {"order_id":"B2"}', 'OK.'] },
  { to: '+14155550109', lines: ['Just checking in.'] },
];
const DISCOUNT_TURNS = 4;

/** Polls the replay until `completed`. */
async function waitForReplay(t: Tenant, id: string, timeoutMs = 90_000): Promise<any> {
  return eventually(
    async () => {
      const res = await request('GET', `/v1/agents/${t.agentId}/replays/${id}`, { key: t.testKey });
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      return res.body.status === 'completed' ? res.body : undefined;
    },
    `replay ${id} completed`,
    timeoutMs,
  );
}

describe('replays of recorded calls against an agent version', function () {
  this.timeout(240_000);
  let t: Tenant;
  let receiver: HttpsReceiver;
  const callIds: string[] = [];
  let draft: number;
  let published: number;

  before(async () => {
    t = await newTenant({ instructions: 'You sell shoes. Offer the spring discount.' });
    receiver = await startHttpsReceiver();
    const tool = await createHttpTool(t, receiver, 'lookup_order', '/orders');
    receiver.route('/orders', () => ({ status: 200, body: JSON.stringify({ status: 'shipped' }) }));
    await useTools(t, [tool.id]);
    for (const s of SCRIPTS) {
      const res = await request('POST', '/v1/calls', {
        key: t.testKey,
        body: { to: s.to, agent_id: t.agentId, simulation: { caller: s.lines } },
      });
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      callIds.push(res.body.id);
    }
    for (const id of callIds)
      expect((await waitForCall(t.testKey, id, undefined, 60_000)).status).to.equal('completed');
    expect(receiver.at('/orders')).to.have.length(2);
    const edited = await request('POST', `/v1/agents/${t.agentId}`, {
      key: t.testKey,
      body: { instructions: 'You sell shoes. Never offer a discount.', publish: false },
    });
    expect(edited.status, JSON.stringify(edited.body)).to.equal(200);
    draft = edited.body.latest_version;
    published = edited.body.version;
    expect(draft).to.be.greaterThan(published);
  });
  after(async () => receiver?.close());

  it('turn mode: exactly the turns that offered a discount changed; recorded tool results served', async () => {
    const usageBefore = await UsageRecord.countDocuments({ org_id: t.orgId, kind: 'llm_request' });
    const created = await request('POST', `/v1/agents/${t.agentId}/replays`, {
      key: t.testKey,
      body: { version: draft, mode: 'turn', call_ids: callIds },
    });
    expect(created.status, JSON.stringify(created.body)).to.equal(200);
    expect(created.body).to.include({ object: 'replay', status: 'running', version: draft, mode: 'turn' });
    expect(created.body.progress.total).to.equal(10);
    const replay = await waitForReplay(t, created.body.id);

    expect(replay.progress).to.deep.include({ total: 10, completed: 10, errored: 0, skipped: 0, pending: 0 });
    const turns = replay.calls.flatMap((c: any) => c.turns.map((x: any) => ({ ...x, call_id: c.call_id })));
    const changed = turns.filter((x: any) => x.changed);
    expect(changed).to.have.length(DISCOUNT_TURNS);
    for (const x of changed) {
      expect(x.caller).to.match(/discount/i);
      expect(x.original.text).to.equal('Good news: you get 10% off today.');
      expect(x.replayed.text).to.equal('Sorry, we have no discounts.');
      expect(x.basis).to.equal('judged');
    }
    for (const x of turns.filter((y: any) => !y.changed)) {
      expect(x.basis).to.equal('same');
      expect(x.replayed).to.deep.equal(x.original);
    }
    expect(replay.totals).to.include({ calls_changed: DISCOUNT_TURNS, turns: turns.length, turns_changed: 4 });
    expect(replay.totals).to.include({ tool_calls_added: 0, tool_calls_removed: 0, transfers_changed: 0 });
    expect(replay.calls.filter((c: any) => c.changed).map((c: any) => c.call_id)).to.deep.equal(
      [0, 1, 3, 6].map((i) => callIds[i]),
    );
    const withTool = replay.calls[1];
    expect(withTool.turns[0].original.tool_calls).to.deep.equal([
      { name: 'lookup_order', arguments: '{"order_id":"A17"}' },
    ]);
    expect(withTool.turns[0].replayed.tool_calls).to.deep.equal(withTool.turns[0].original.tool_calls);
    expect(withTool.summary.tokens.replayed.prompt).to.be.greaterThan(0);
    expect(replay.totals.replayed.tokens.prompt).to.be.greaterThan(0);
    expect(replay.totals.original.tokens.prompt).to.be.greaterThan(0);

    // The turn after the tool call was asked with the recorded result; the tool server was never asked.
    const asked = h().llm.requests.filter((r) => r.user === `${replay.id}:${callIds[1]}` && !r.response_format);
    const toolMessage = asked.flatMap((r) => r.messages).find((m: any) => m.role === 'tool') as any;
    expect(toolMessage.content).to.equal(JSON.stringify({ status: 'shipped' }));
    expect(asked[0].messages[0].content).to.include('Never offer a discount');
    expect(receiver.at('/orders'), 'no tool ran again').to.have.length(2);
    expect(await UsageRecord.countDocuments({ org_id: t.orgId, kind: 'llm_request' }), 'not metered').to.equal(
      usageBefore,
    );

    const events = await eventually(async () => {
      const res = await request('GET', '/v1/events?limit=100', { key: t.testKey });
      const mine = (res.body.data as any[]).filter((e) => e.type === 'replay.completed');
      return mine.length ? mine : undefined;
    }, 'replay.completed');
    expect(events).to.have.length(1);
    expect(events[0].data.object).to.include({ id: replay.id, status: 'completed' });
    expect(events[0].data.object.totals.turns_changed).to.equal(4);
    await keepHistory(replay.id, 'replay-run-turn');
    await keepHistory(`${replay.id}-${callIds[1]}`, 'replay-run-call');
  });

  it('by filter and sample: the published version changes nothing; listed newest first', async () => {
    const created = await request('POST', `/v1/agents/${t.agentId}/replays`, {
      key: t.testKey,
      body: { version: published, filter: { status: ['completed'] }, sample: 4 },
    });
    expect(created.status, JSON.stringify(created.body)).to.equal(200);
    expect(created.body.calls).to.have.length(4);
    for (const c of created.body.calls) expect(callIds).to.include(c.call_id);
    const replay = await waitForReplay(t, created.body.id);
    expect(replay.totals.turns).to.be.greaterThan(0);
    expect(replay.totals.turns_changed).to.equal(0);
    const list = await request('GET', `/v1/agents/${t.agentId}/replays`, { key: t.testKey });
    expect(list.status).to.equal(200);
    expect(list.body.data[0].id).to.equal(replay.id);
  });

  it('bad input: unknown version, call_ids with a filter, a call of another agent, nothing matching', async () => {
    const post = (body: unknown) => request('POST', `/v1/agents/${t.agentId}/replays`, { key: t.testKey, body });
    const unknown = await post({ version: 99, call_ids: callIds });
    expect(unknown.status).to.equal(404);
    expect(unknown.body.error.param).to.equal('version');
    const both = await post({ version: draft, call_ids: callIds, sample: 2 });
    expect(both.status).to.equal(400);
    expect(both.body.error.param).to.equal('call_ids');
    const other = await newTenant();
    const foreign = await post({ version: draft, call_ids: [callIds[0], 'call_01jd5x2v7c0000000000000000'] });
    expect(foreign.status).to.equal(400);
    expect(foreign.body.error.param).to.equal('call_ids[1]');
    const none = await post({ version: draft, filter: { created: { lt: 1 } } });
    expect(none.status).to.equal(400);
    expect(none.body.error.param).to.equal('filter');
    const mode = await post({ version: draft, mode: 'sideways', call_ids: callIds });
    expect(mode.status).to.equal(400);
    expect(mode.body.error.param).to.equal('mode');
    const theirs = await request('GET', `/v1/agents/${other.agentId}/replays`, { key: other.testKey });
    expect(theirs.body.data).to.deep.equal([]);
  });

  it('erasure: an erased caller’s call is not replayable and vanishes from finished replays', async () => {
    const done = (await request('GET', `/v1/agents/${t.agentId}/replays?limit=100`, { key: t.testKey })).body.data;
    const first = done.at(-1);
    expect(first.calls[0].turns.length).to.be.greaterThan(0);
    const erase = await request('POST', '/v1/contacts/erase', { key: t.testKey, body: { phone: SCRIPTS[0].to } });
    expect(erase.status, JSON.stringify(erase.body)).to.equal(200);
    await eventually(async () => {
      const e = await request('GET', `/v1/erasures/${erase.body.id}`, { key: t.testKey });
      return e.body.status === 'completed' ? e.body : undefined;
    }, 'erasure completed');
    const after = (await request('GET', `/v1/agents/${t.agentId}/replays/${first.id}`, { key: t.testKey })).body;
    expect(after.calls[0]).to.include({ call_id: callIds[0], erased: true });
    expect(after.calls[0].turns).to.deep.equal([]);
    expect(after.calls[1].erased).to.equal(false);
    expect(await ReplayTurn.countDocuments({ call_id: callIds[0] }), 'its replayed turns deleted').to.equal(0);
    const again = await request('POST', `/v1/agents/${t.agentId}/replays`, {
      key: t.testKey,
      body: { version: draft, call_ids: [callIds[0]] },
    });
    expect(again.status).to.equal(400);
    expect(again.body.error.param).to.equal('call_ids[0]');
  });
});
