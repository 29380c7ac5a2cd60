/**
 * The next turn's context reads started at a simulated call's answer (src/services/context-prefetch.ts):
 * used once, by a request with the same context ids, within `PREFETCH_MAX_AGE_MS`; and knowledge added
 * mid-call, answered before the model's answer that the next line follows, is in the next request.
 */
import { expect } from 'chai';
import {
  contextKey,
  PREFETCH_MAX_AGE_MS,
  prefetchContext,
  takePrefetchedContext,
} from '../../src/services/context-prefetch';
import { h, newTenant, request, waitForCall } from '../support/harness';
import { eventually } from '../support/conversations';
import { registry } from '../../src/platform/metrics';

type Tenant = Awaited<ReturnType<typeof newTenant>>;

const KNOWLEDGE_PROMPT = 'You have knowledge documents.';

describe('context prefetch', function () {
  let t: Tenant;
  before(async () => {
    t = await newTenant({ first_message: 'Hello, prefetch here.' });
  });

  const scope = () => ({ orgId: t.orgId, livemode: false, agentId: t.agentId, contactId: null });

  it('gives the reads to the same call and ids once, within the age bound, and to nothing else', async () => {
    const callId = 'call_prefetch_rules';
    const now = Date.now();
    prefetchContext(callId, scope(), now);
    expect(takePrefetchedContext(callId, { ...scope(), contactId: 'cont_other' }, now), 'other ids').to.equal(null);
    expect(takePrefetchedContext(callId, scope(), now), 'dropped by the mismatch').to.equal(null);

    prefetchContext(callId, scope(), now);
    expect(takePrefetchedContext('call_someone_else', scope(), now), 'another call').to.equal(null);
    expect(takePrefetchedContext(callId, scope(), now + PREFETCH_MAX_AGE_MS + 1), 'too old').to.equal(null);

    prefetchContext(callId, scope(), now);
    const parts = takePrefetchedContext(callId, scope(), now + 5);
    expect(parts, 'fresh, same ids').to.not.equal(null);
    expect((await parts!).index.size, 'the agent has no knowledge').to.equal(0);
    expect(takePrefetchedContext(callId, scope(), now + 5), 'taken once').to.equal(null);
    expect(contextKey(callId, scope())).to.not.equal(contextKey(callId, { ...scope(), agentLivemode: true }));
  });

  /** `svc_context_prefetches_total` of this process, by result. */
  const prefetches = async () => {
    const values = (await registry.getSingleMetric('svc_context_prefetches_total')!.get()).values;
    const of = (result: string) => values.find((v) => v.labels.result === result)?.value ?? 0;
    return { taken: of('taken'), unused: of('unused') };
  };

  it("starts the next request's reads at each answer of a simulated call, each counted once, taken or unused", async () => {
    const before = await prefetches();
    const res = await request('POST', '/v1/calls', {
      key: t.testKey,
      body: { to: '+14155550124', agent_id: t.agentId, simulation: { caller: ['One', 'Two', 'Three'] } },
    });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    expect((await waitForCall(t.testKey, res.body.id)).status).to.equal('completed');
    // Three answers, three prefetches (the call's workflow passes prefetchNextContext for a simulation): the
    // second and third requests take theirs when they come within PREFETCH_MAX_AGE_MS, and the last
    // answer's, which no request follows, is dropped unused once that bound passes.
    const after = await eventually(async () => {
      const now = await prefetches();
      return now.taken + now.unused - before.taken - before.unused >= 3 ? now : undefined;
    }, 'three prefetches counted');
    expect(after.taken + after.unused - before.taken - before.unused, 'one per answer').to.equal(3);
    expect(after.unused - before.unused, "the last answer's at least").to.be.at.least(1);
  });

  it('a simulated call whose knowledge is added before an answer has it in the next request', async () => {
    let addedMs: number | null = null;
    const llm = h().llm;
    // The first answer waits until knowledge is added (answered by the API before the model answers), so
    // the next request comes well within the prefetch's bound of the first one's start: reads started
    // before the answer would miss it.
    llm.before = async (body) => {
      const last = body.messages.filter((m) => m.role === 'user').at(-1)?.content;
      if (last !== 'Hello' || addedMs !== null) return;
      const res = await request('POST', '/v1/knowledge', {
        key: t.testKey,
        body: { agent_id: t.agentId, title: 'Opening hours', text: 'The depot opens at seven and closes at nine.' },
      });
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      addedMs = Date.now();
    };
    let id: string;
    try {
      const res = await request('POST', '/v1/calls', {
        key: t.testKey,
        body: {
          to: '+14155550123',
          agent_id: t.agentId,
          simulation: { caller: ['Hello', 'When does the depot open?'] },
        },
      });
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      id = res.body.id;
      await waitForCall(t.testKey, id);
    } finally {
      llm.before = null;
    }
    expect(addedMs, 'the knowledge was added during the first request').to.not.equal(null);
    const mine = llm.requests.filter((r) => r.user === id && !r.response_format);
    expect(mine.length, 'two answers').to.equal(2);
    expect(addedMs!, 'added before the first answer').to.be.at.most(mine[0].answeredMs!);
    const system = (r: (typeof mine)[number]) => r.messages.find((m) => m.role === 'system')?.content ?? '';
    expect(system(mine[0])).to.not.include(KNOWLEDGE_PROMPT);
    expect(system(mine[1]), 'the next request has the knowledge').to.include(KNOWLEDGE_PROMPT);
    expect(system(mine[1])).to.include('opens at seven');
  });
});
