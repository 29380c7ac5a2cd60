/**
 * Squad versions through the real API, Temporal and store, as agent versions: version 1 at creation, the
 * next one per configuration change (published, or a draft with `"publish": false`), list and retrieve,
 * publish as rollback, traffic splits picked per contact, and calls pinning `squad_version` (the call
 * object shows the version it ran and its start member is that version's).
 */
import { expect } from 'chai';
import { h, newTenant, request, waitForCall } from '../support/harness';
import { customerNumber } from '../support/conversations';
import { pickSplitVersion } from '../../src/services/agent-versions';

type Tenant = Awaited<ReturnType<typeof newTenant>>;

const post = (t: Tenant, path: string, body: unknown = {}, headers?: Record<string, string>) =>
  request('POST', path, { key: t.testKey, body, headers });
const get = (t: Tenant, path: string) => request('GET', path, { key: t.testKey });

async function ok(res: Promise<{ status: number; body: any }>) {
  const r = await res;
  expect(r.status, JSON.stringify(r.body)).to.equal(200);
  return r.body;
}

describe('squad versions', function () {
  let t: Tenant;
  let other: Tenant;
  let front: { id: string };
  let back: { id: string };

  before(async () => {
    [t, other] = await Promise.all([newTenant(), newTenant()]);
    front = await ok(post(t, '/v1/agents', { name: 'Front', instructions: 'FRONT-DESK prompt.' }));
    back = await ok(post(t, '/v1/agents', { name: 'Back', instructions: 'BACK-OFFICE prompt.' }));
  });

  const members = (context: unknown = 'all') => [
    { name: 'front', agent_id: front.id, handoffs: [{ to: 'back', description: 'Anything hard.', context }] },
    { name: 'back', agent_id: back.id, handoffs: [{ to: 'front', description: 'Anything easy.' }] },
  ];

  it('versions every configuration change: drafts, list, retrieve, publish and roll back', async () => {
    const squad = await ok(post(t, '/v1/squads', { name: 'Desk', members: members(), start: 'front' }));
    expect(squad).to.include({ version: 1, latest_version: 1, traffic_split: null, max_handoffs: 10 });

    // A configuration change: version 2, published at once. A rename alone makes none.
    const v2 = await ok(post(t, `/v1/squads/${squad.id}`, { max_handoffs: 3 }));
    expect(v2).to.include({ version: 2, latest_version: 2, max_handoffs: 3 });
    const renamed = await ok(post(t, `/v1/squads/${squad.id}`, { name: 'Desk 2' }));
    expect(renamed).to.include({ version: 2, latest_version: 2, name: 'Desk 2' });

    // A draft: version 3 written, the squad (and new calls) stay at version 2.
    const draft = await ok(
      post(t, `/v1/squads/${squad.id}`, { members: members('summary'), start: 'back', publish: false }),
    );
    expect(draft).to.include({ version: 2, latest_version: 3, start: 'front', max_handoffs: 3 });
    expect(draft.members[0].handoffs[0].context).to.equal('all');

    const list = await ok(get(t, `/v1/squads/${squad.id}/versions`));
    expect(list.data.map((v: { id: string }) => v.id)).to.deep.equal([3, 2, 1].map((n) => `${squad.id}:v${n}`));
    expect(list.data.map((v: { published: boolean; draft: boolean }) => [v.published, v.draft])).to.deep.equal([
      [false, true],
      [true, false],
      [false, false],
    ]);
    const v3 = await ok(get(t, `/v1/squads/${squad.id}/versions/3`));
    expect(v3).to.include({ object: 'squad_version', squad_id: squad.id, number: 3, published_at: null });
    expect(v3.config).to.include({ start: 'back', max_handoffs: 3, overflow: null });
    expect(v3.config.members[0].handoffs[0].context).to.equal('summary');
    expect((await ok(get(t, `/v1/squads/${squad.id}/versions/1`))).config).to.include({ max_handoffs: 10 });
    // Pages by version id.
    const page = await ok(get(t, `/v1/squads/${squad.id}/versions?limit=1&starting_after=${squad.id}:v3`));
    expect(page.data.map((v: { number: number }) => v.number)).to.deep.equal([2]);
    expect(page.has_more).to.equal(true);
    const back2 = await ok(get(t, `/v1/squads/${squad.id}/versions?limit=5&ending_before=${squad.id}:v1`));
    expect(back2.data.map((v: { number: number }) => v.number)).to.deep.equal([3, 2]);

    // Publishing the draft, then rolling back to version 1 (idempotent with its key).
    const published = await ok(post(t, `/v1/squads/${squad.id}/versions/3/publish`));
    expect(published).to.include({ version: 3, latest_version: 3, start: 'back' });
    expect((await ok(get(t, `/v1/squads/${squad.id}/versions/3`))).published_at).to.be.a('number');
    const key = { 'Idempotency-Key': `rollback-${squad.id}` };
    const rolled = await ok(post(t, `/v1/squads/${squad.id}/versions/1/publish`, {}, key));
    expect(rolled).to.include({ version: 1, latest_version: 3, start: 'front', max_handoffs: 10, name: 'Desk 2' });
    expect(rolled.members).to.deep.equal(squad.members);
    await ok(post(t, `/v1/squads/${squad.id}/versions/3/publish`));
    const replayed = await ok(post(t, `/v1/squads/${squad.id}/versions/1/publish`, {}, key));
    expect(replayed).to.deep.equal(rolled);
    expect((await ok(get(t, `/v1/squads/${squad.id}`))).version).to.equal(3);

    // Refusals, each naming its param; nothing written.
    const refusals: [Promise<{ status: number; body: any }>, number, string][] = [
      [get(t, `/v1/squads/${squad.id}/versions/9`), 404, 'version'],
      [get(t, `/v1/squads/${squad.id}/versions/zero`), 404, 'version'],
      [post(t, `/v1/squads/${squad.id}/versions/9/publish`), 404, 'version'],
      [request('GET', `/v1/squads/${squad.id}/versions`, { key: other.testKey }), 404, 'id'],
      [request('GET', `/v1/squads/${squad.id}/versions/1`, { key: t.liveKey }), 404, 'id'],
      [get(t, `/v1/squads/${squad.id}/versions?starting_after=sqd_x:v1`), 400, 'starting_after'],
      [
        post(t, `/v1/squads/${squad.id}`, { traffic_split: [{ version: 7, weight: 100 }] }),
        400,
        'traffic_split[0].version',
      ],
      [
        post(t, `/v1/squads/${squad.id}`, {
          traffic_split: [
            { version: 1, weight: 50 },
            { version: 1, weight: 50 },
          ],
        }),
        400,
        'traffic_split[1].version',
      ],
      [post(t, `/v1/squads/${squad.id}`, { traffic_split: [{ version: 1, weight: 60 }] }), 400, 'traffic_split'],
      [post(t, `/v1/squads/${squad.id}`, { traffic_split: [] }), 400, 'traffic_split'],
    ];
    for (const [pending, status, param] of refusals) {
      const res = await pending;
      expect(res.status, `${param}: ${JSON.stringify(res.body)}`).to.equal(status);
      expect(res.body.error.param, JSON.stringify(res.body)).to.equal(param);
    }
    const after = await ok(get(t, `/v1/squads/${squad.id}`));
    expect(after).to.include({ version: 3, latest_version: 3, traffic_split: null });
  });

  it('runs calls at the pinned version, else the split pick per contact, and shows it on the call', async () => {
    const squad = await ok(post(t, '/v1/squads', { name: 'Calls', members: members(), start: 'front' }));
    // Version 2: a draft where `back` answers first.
    await ok(post(t, `/v1/squads/${squad.id}`, { start: 'back', publish: false }));
    const firstPrompt = (callId: string) =>
      String(h().llm.requests.find((r) => r.user === callId && !r.response_format)?.messages[0].content);
    const place = async (body: Record<string, unknown>) => {
      const res = await post(t, '/v1/calls', { to: customerNumber(), simulation: { caller: ['Hello?'] }, ...body });
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      return res.body;
    };

    // Pinned draft: the call shows version 2 and its start member (back) answers.
    const pinned = await place({ squad_id: squad.id, squad_version: 2 });
    expect(pinned).to.include({ squad_version: 2, squad_member: 'back', agent_id: back.id });
    const pinnedDone = await waitForCall(t.testKey, pinned.id);
    expect(pinnedDone).to.include({ squad_version: 2, squad_member: 'back' });
    expect(firstPrompt(pinned.id)).to.include('BACK-OFFICE');
    // Not pinned: the published version 1.
    const plain = await place({ squad_id: squad.id });
    expect(plain).to.include({ squad_version: 1, squad_member: 'front', agent_id: front.id });
    expect(firstPrompt((await waitForCall(t.testKey, plain.id)).id)).to.include('FRONT-DESK');

    // Refusals naming squad_version; nothing placed.
    const before = (await ok(get(t, '/v1/calls?limit=100'))).data.length;
    const noSquad = await post(t, '/v1/calls', { to: customerNumber(), agent_id: front.id, squad_version: 1 });
    expect(noSquad.status).to.equal(400);
    expect(noSquad.body.error.param).to.equal('squad_version');
    const unknown = await post(t, '/v1/calls', { to: customerNumber(), squad_id: squad.id, squad_version: 5 });
    expect(unknown.status, JSON.stringify(unknown.body)).to.equal(400);
    expect(unknown.body.error.param).to.equal('squad_version');
    expect((await ok(get(t, '/v1/calls?limit=100'))).data.length).to.equal(before);

    // A 50/50 split: each contact gets the deterministic pick keyed by the squad id, and keeps it.
    const split = [
      { version: 1, weight: 50 },
      { version: 2, weight: 50 },
    ];
    expect((await ok(post(t, `/v1/squads/${squad.id}`, { traffic_split: split }))).traffic_split).to.deep.equal(split);
    const byNumber = new Map<string, number>();
    while (byNumber.size < 2) {
      const n = customerNumber();
      const v = pickSplitVersion(squad.id, n, split);
      if (![...byNumber.values()].includes(v)) byNumber.set(n, v);
    }
    for (const [n, v] of [...byNumber, [...byNumber][0]]) {
      const c = await place({ squad_id: squad.id, to: n });
      expect(c.squad_version, n).to.equal(v);
      expect(c.squad_member).to.equal(v === 2 ? 'back' : 'front');
      await waitForCall(t.testKey, c.id);
    }
  });
});
