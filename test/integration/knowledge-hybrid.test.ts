/**
 * Knowledge retrieval by meaning and by words, end to end through the real API, worker, Temporal dev
 * server and FerretDB, with the fake OpenAI server's deterministic embeddings (test/support/fake-embeddings.ts):
 * chunks embedded on write and stored with their vectors; a paraphrased question BM25 misses found by the
 * hybrid search (reciprocal rank fusion); BM25 alone said when no embedding model is configured or the
 * query cannot be embedded; a write refused with 503 (nothing stored) when the embedding server fails;
 * sources on hits; the `knowledge_citations` agent setting in the prompt the fake LLM receives; and the
 * chunks used, with their sources, on the transcript. A search's query embedding overlaps its version
 * read and index update (store commands and the fake server's arrival times observed), and still falls
 * back to BM25 when it fails.
 */
import { Writable } from 'node:stream';
import { expect } from 'chai';
import mongoose from 'mongoose';
import winston from 'winston';
import { h, newTenant, request, waitForCall } from '../support/harness';
import { config, setConfig } from '../../src/config';
import { logger } from '../../src/logger';
import { KnowledgeChunk, KnowledgeDocument } from '../../src/models/knowledge';
import { bumpKnowledgeVersion, KnowledgeSearcher } from '../../src/services/knowledge';
import { CITATION_INSTRUCTION } from '../../src/services/assistant-context';
import { decodeEmbedding } from '../../src/providers/embeddings';
import { FAKE_EMBEDDING_DIMENSIONS } from '../support/fake-embeddings';

type Tenant = Awaited<ReturnType<typeof newTenant>>;

const DOCS = {
  refunds: {
    title: 'Returns and refunds',
    text: 'You may return a bicycle within 45 days of delivery for a full refund. It must be unused and in its original box. Refunds reach the original card within five business days.',
  },
  shipping: {
    title: 'Shipping times',
    text: 'Orders ship from our Porto warehouse. We send parcels to mainland Portugal in two business days; Spain three to four days. Shipping is free above 150 euros.',
  },
  warranty: {
    title: 'Warranty',
    text: 'Every frame carries a lifetime warranty against cracks. Wheels, brakes and gears are covered for two years.',
  },
  hours: {
    title: 'Showroom opening hours',
    text: 'The Lisbon showroom opens Monday to Saturday from 9:00 to 19:00 and is closed on Sundays and public holidays.',
  },
};
/** A paraphrase of the refunds document sharing none of its words. */
const PARAPHRASE = 'Will I get reimbursed if I give it back?';

async function search(key: string, agentId: string, query: string) {
  const res = await request(
    'GET',
    `/v1/knowledge/search?agent_id=${agentId}&query=${encodeURIComponent(query)}&limit=3`,
    { key },
  );
  expect(res.status, JSON.stringify(res.body)).to.equal(200);
  return res.body as {
    retrieval: string;
    data: { document: string; chunk: number; score: number; source: Record<string, unknown> }[];
  };
}

/**
 * The store commands on knowledge collections (`knowledge_*`) sent while `fn` runs, with when each was
 * started and answered (`Date.now()` ms, the fake server's clock), from the driver's command events.
 */
async function storeCommands<T>(
  fn: () => Promise<T>,
): Promise<{ result: T; commands: { name: string; startedMs: number; answeredMs: number }[] }> {
  const client = mongoose.connection.getClient();
  const open = new Map<number, { name: string; startedMs: number; answeredMs: number }>();
  const commands: { name: string; startedMs: number; answeredMs: number }[] = [];
  const started = (e: { requestId: number; commandName: string; command: Record<string, unknown> }) => {
    const collection = String(e.command[e.commandName]);
    if (collection.startsWith('knowledge_'))
      open.set(e.requestId, { name: `${collection}.${e.commandName}`, startedMs: Date.now(), answeredMs: 0 });
  };
  const answered = (e: { requestId: number }) => {
    const c = open.get(e.requestId);
    if (c) commands.push({ ...c, answeredMs: Date.now() });
  };
  client.on('commandStarted', started);
  client.on('commandSucceeded', answered);
  try {
    return { result: await fn(), commands };
  } finally {
    client.off('commandStarted', started);
    client.off('commandSucceeded', answered);
  }
}

/** The warnings the logger writes while `fn` runs (the console's transports keep their own level). */
async function warnings<T>(fn: () => Promise<T>): Promise<{ result: T; messages: string[] }> {
  const messages: string[] = [];
  const transport = new winston.transports.Stream({ stream: new Writable({ write: (_c, _e, cb) => cb() }) });
  transport.log = (info: { level: string; message: unknown }, next: () => void) => {
    if (info.level === 'warn') messages.push(String(info.message));
    next();
  };
  logger.add(transport);
  try {
    return { result: await fn(), messages };
  } finally {
    logger.remove(transport);
  }
}

/** Runs `fn` with the embedding model configured (the fake server's), then restores the configuration. */
async function withEmbeddings<T>(fn: () => Promise<T>): Promise<T> {
  const saved = config();
  setConfig({
    ...saved,
    openaiEmbeddingModel: 'fake-embedding',
    openaiEmbeddingBaseUrl: h().llm.baseUrl,
    openaiEmbeddingApiKey: 'sk-test-fake',
  });
  try {
    return await fn();
  } finally {
    setConfig(saved);
  }
}

describe('knowledge: hybrid retrieval and citations', function () {
  let t: Tenant;
  let agentId: string;
  const ids: Record<string, string> = {};

  before(async () => {
    t = await newTenant();
    const agent = await request('POST', '/v1/agents', {
      key: t.testKey,
      body: { name: 'Citing agent', instructions: 'You help bicycle shop customers.', knowledge_citations: true },
    });
    expect(agent.status, JSON.stringify(agent.body)).to.equal(200);
    expect(agent.body.knowledge_citations).to.equal(true);
    agentId = agent.body.id;
    await withEmbeddings(async () => {
      for (const [k, d] of Object.entries(DOCS)) {
        const res = await request('POST', '/v1/knowledge', { key: t.testKey, body: { agent_id: agentId, ...d } });
        expect(res.status, JSON.stringify(res.body)).to.equal(200);
        ids[k] = res.body.id;
      }
    });
  });

  it('stores each chunk with its embedding, and finds a paraphrase BM25 misses by fusing both rankings', async () => {
    const row = await KnowledgeChunk.findOne({ kdoc_id: ids.refunds }).lean();
    expect(row!.embedding_model).to.equal('fake-embedding');
    expect(decodeEmbedding(row!.embedding)!.length).to.equal(FAKE_EMBEDDING_DIMENSIONS);
    const embedded = h().llm.embeddingRequests.flatMap((r) => r.input);
    expect(embedded).to.include(`${DOCS.refunds.title}\n\n${DOCS.refunds.text}`);

    const words = await search(t.testKey, agentId, PARAPHRASE);
    expect(words.retrieval).to.equal('bm25');
    expect(words.data.map((x) => x.document)).to.not.include(ids.refunds);

    await withEmbeddings(async () => {
      const hybrid = await search(t.testKey, agentId, PARAPHRASE);
      expect(hybrid.retrieval).to.equal('hybrid');
      expect(hybrid.data[0].document).to.equal(ids.refunds);
      expect(hybrid.data[0].score)
        .to.be.above(0)
        .and.at.most(2 / 61);
      expect(hybrid.data[0].source).to.deep.equal({ title: DOCS.refunds.title });
      // Exact words still count: the hours document is found by its own words too.
      const exact = await search(t.testKey, agentId, 'Lisbon showroom Saturday');
      expect(exact.data[0].document).to.equal(ids.hours);
    });
  });

  it('searches by BM25 alone, and says so, when the query cannot be embedded', async () => {
    await withEmbeddings(async () => {
      h().llm.embeddingFailures = 2; // both attempts of the query
      const res = await search(t.testKey, agentId, 'Lisbon showroom Saturday');
      expect(h().llm.embeddingFailures).to.equal(0);
      expect(res.retrieval).to.equal('bm25');
      expect(res.data[0].document).to.equal(ids.hours);
    });
  });

  it('asks for the query embedding side by side with the version read and the index update', async () => {
    await withEmbeddings(async () => {
      const scope = { orgId: t.orgId, livemode: false, agentId, query: PARAPHRASE, limit: 3 };
      const searcher = new KnowledgeSearcher();
      expect((await searcher.find(scope)).retrieval).to.equal('hybrid'); // its index cached, with vectors
      // Changes the next search must take in first: one store read per change row, then the document again.
      for (let i = 0; i < 20; i++) await bumpKnowledgeVersion(agentId, ids.refunds, 'replaced');
      const asked = h().llm.embeddingRequests.length;
      h().llm.embeddingDelayMs = 300;
      const t0 = Date.now();
      let found;
      try {
        found = await storeCommands(() => searcher.find(scope));
      } finally {
        h().llm.embeddingDelayMs = 0;
      }
      const totalMs = Date.now() - t0;
      const { result, commands } = found;
      expect(result.retrieval).to.equal('hybrid');
      expect(result.hits[0].document).to.equal(ids.refunds);
      expect(h().llm.embeddingRequests.length).to.equal(asked + 1);
      const embeddingAskedMs = h().llm.embeddingRequests[asked].atMs;
      const names = commands.map((c) => c.name);
      expect(names).to.include('knowledge_heads.find'); // the version read
      expect(names.filter((n) => n === 'knowledge_changes.find').length).to.be.at.least(20); // the changes walked
      expect(names).to.include('knowledge_chunks.find'); // the document read again
      const storeFirstMs = Math.min(...commands.map((c) => c.startedMs));
      const storeLastMs = Math.max(...commands.map((c) => c.answeredMs));
      const versionReadMs = commands.find((c) => c.name === 'knowledge_heads.find')!.answeredMs;
      // Before the search's store reads were over (one after the other, it would have come after the last).
      expect(embeddingAskedMs, JSON.stringify({ embeddingAskedMs, versionReadMs, storeLastMs })).to.be.below(
        storeLastMs,
      );
      expect(totalMs).to.be.at.least(300);
      // The two waits overlapped: less than the embedding's 300 ms plus the store's span.
      expect(totalMs, JSON.stringify({ totalMs, storeMs: storeLastMs - storeFirstMs })).to.be.below(
        300 + (storeLastMs - storeFirstMs),
      );
    });
  });

  it('answers by BM25, with the warning, when the query embedding asked early fails', async () => {
    await withEmbeddings(async () => {
      const scope = { orgId: t.orgId, livemode: false, agentId, query: 'Lisbon showroom Saturday', limit: 3 };
      const searcher = new KnowledgeSearcher();
      expect((await searcher.find(scope)).retrieval).to.equal('hybrid'); // its index cached, with vectors
      await bumpKnowledgeVersion(agentId, ids.hours, 'replaced'); // so the embedding overlaps an update
      h().llm.embeddingFailures = 2; // both attempts of the query
      const { result, messages } = await warnings(() => searcher.find(scope));
      expect(h().llm.embeddingFailures).to.equal(0);
      expect(result.retrieval).to.equal('bm25');
      expect(result.hits[0].document).to.equal(ids.hours);
      expect(messages).to.include('knowledge query not embedded; searching by BM25 only');
    });
  });

  it('asks nothing of the embedding server for an agent whose chunks have no vectors', async () => {
    const agent = await request('POST', '/v1/agents', {
      key: t.testKey,
      body: { name: 'Words only agent', instructions: 'You help bicycle shop customers.' },
    });
    expect(agent.status, JSON.stringify(agent.body)).to.equal(200);
    const doc = await request('POST', '/v1/knowledge', {
      key: t.testKey,
      body: { agent_id: agent.body.id, ...DOCS.hours }, // written without an embedding model: no vectors
    });
    expect(doc.status, JSON.stringify(doc.body)).to.equal(200);
    await withEmbeddings(async () => {
      const scope = { orgId: t.orgId, livemode: false, agentId: agent.body.id, query: 'Lisbon showroom', limit: 3 };
      const searcher = new KnowledgeSearcher();
      const asked = h().llm.embeddingRequests.length;
      for (let i = 0; i < 2; i++) {
        const result = await searcher.find(scope); // cold, then with its index cached
        expect(result.retrieval).to.equal('bm25');
        expect(result.hits[0].document).to.equal(doc.body.id);
      }
      expect(h().llm.embeddingRequests.length).to.equal(asked);
    });
  });

  it('refuses a write with 503 when the embedding server keeps failing, and stores nothing', async () => {
    await withEmbeddings(async () => {
      const before = await KnowledgeDocument.countDocuments({ agent_id: agentId });
      h().llm.embeddingFailures = 3; // every attempt of the one batch
      const res = await request('POST', '/v1/knowledge', {
        key: t.testKey,
        body: { agent_id: agentId, title: 'Parking', text: 'Customers park for free behind the showroom.' },
      });
      h().llm.embeddingFailures = 0;
      expect(res.status, JSON.stringify(res.body)).to.equal(503);
      expect(res.body.error).to.include({ type: 'api_error', code: 'embedding_unavailable' });
      expect(await KnowledgeDocument.countDocuments({ agent_id: agentId })).to.equal(before);
      expect(await KnowledgeChunk.countDocuments({ agent_id: agentId, text: /park for free/ })).to.equal(0);
    });
  });

  it('cites the url, file name and page a chunk or its document has', async () => {
    const row = await KnowledgeChunk.findOne({ kdoc_id: ids.warranty }).lean();
    await KnowledgeChunk.collection.updateOne({ _id: row!._id } as never, {
      $set: { url: 'https://shop.example/warranty', page: 3 },
    });
    await KnowledgeDocument.collection.updateOne({ _id: ids.warranty } as never, {
      $set: { source: { type: 'file', filename: 'warranty.pdf' } },
    });
    // As a write path does after its rows: every process's cached index takes the document in again.
    await bumpKnowledgeVersion(agentId, ids.warranty, 'replaced');
    const [hit] = await new KnowledgeSearcher().search({
      orgId: t.orgId,
      livemode: false,
      agentId,
      query: 'frame cracks',
    });
    expect(hit.document).to.equal(ids.warranty);
    expect(hit.source).to.deep.equal({
      title: 'Warranty',
      url: 'https://shop.example/warranty',
      filename: 'warranty.pdf',
      page: 3,
    });
  });

  it('puts sources and the instruction to cite them in the prompt, and records the chunks used with their sources', async () => {
    await withEmbeddings(async () => {
      const res = await request('POST', '/v1/calls', {
        key: t.testKey,
        body: { to: '+14155550181', agent_id: agentId, simulation: { caller: [PARAPHRASE] } },
      });
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      const call = await waitForCall(t.testKey, res.body.id);
      const system = h().llm.requests.find((r) => r.user === call.id)!.messages[0].content!;
      expect(system).to.contain(CITATION_INSTRUCTION);
      expect(system).to.contain(`[1] ${DOCS.refunds.title} (${ids.refunds} #0)`);
      const tr = (await request('GET', `/v1/calls/${call.id}/transcript`, { key: t.testKey })).body;
      const answer = tr.turns.find((x: any) => x.role === 'assistant' && x.knowledge);
      expect(answer.knowledge[0]).to.deep.equal({
        document: ids.refunds,
        chunk: 0,
        source: { title: DOCS.refunds.title },
      });
    });
  });

  it('gives search_knowledge results with their sources, and records them; no citation instruction when the setting is off', async () => {
    const off = await request('POST', `/v1/agents/${agentId}`, {
      key: t.testKey,
      body: { knowledge_citations: false },
    });
    expect(off.status, JSON.stringify(off.body)).to.equal(200);
    expect(off.body.knowledge_citations).to.equal(false);
    const res = await request('POST', '/v1/calls', {
      key: t.testKey,
      body: {
        to: '+14155550182',
        agent_id: agentId,
        simulation: { caller: ['TOOLONCE search_knowledge {"query":"frame cracks"}'] },
      },
    });
    const call = await waitForCall(t.testKey, res.body.id);
    const system = h().llm.requests.find((r) => r.user === call.id)!.messages[0].content!;
    expect(system).to.not.contain(CITATION_INSTRUCTION);
    const tr = (await request('GET', `/v1/calls/${call.id}/transcript`, { key: t.testKey })).body;
    const tool = tr.turns.find((x: any) => x.role === 'tool');
    expect(tool.text).to.contain('Source: Warranty, page 3, warranty.pdf, https://shop.example/warranty');
    expect(tool.knowledge[0]).to.deep.equal({
      document: ids.warranty,
      chunk: 0,
      source: { title: 'Warranty', url: 'https://shop.example/warranty', filename: 'warranty.pdf', page: 3 },
    });
  });
});
