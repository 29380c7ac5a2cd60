/**
 * Knowledge documents end to end through the real API, worker, Temporal dev server and FerretDB with the
 * fake LLM: chunking and BM25 search, replaced and deleted documents never retrieved once the API has
 * answered (in every process), concurrent replaces, limits, idempotency, mode isolation, and what the
 * assistant is given on a call (the contact's records and the best chunks) and records on its turns.
 */
import { expect } from 'chai';
import { h, newTenant, request, waitForCall } from '../support/harness';
import { KnowledgeDocument, KnowledgeRevision, KnowledgeChunk, KnowledgeHead } from '../../src/models/knowledge';
import { chunkText, KnowledgeSearcher, KNOWLEDGE_LIMITS, knowledgeVersion } from '../../src/services/knowledge';

type Tenant = Awaited<ReturnType<typeof newTenant>>;

const REFUND =
  'Refund policy. Customers may return a bicycle within 45 days of delivery for a full refund. ' +
  'The bicycle must be unused and in its original box; the refund reaches the card in five business days.';
const WARRANTY =
  'Warranty. Every frame carries a lifetime warranty against cracks; wheels and brakes are covered for two years.';
const HOURS =
  'Opening hours. The Lisbon showroom opens Monday to Saturday from 9:00 to 19:00 and is closed on Sundays.';

/** A long text of `paragraphs` paragraphs, with `marker` in paragraph `at`. */
function longText(paragraphs: number, marker: string, at: number): string {
  return Array.from({ length: paragraphs }, (_, i) =>
    i === at
      ? `This paragraph explains the ${marker} procedure for returning parcels to the depot at night.`
      : `Paragraph ${i} talks about ordinary matters of the shop: shelves, lamps, carpets and doors, item ${i} of a long catalogue written for testing purposes only.`,
  ).join('\n\n');
}

async function addDoc(key: string, agentId: string, title: string, text: string, headers: Record<string, string> = {}) {
  const res = await request('POST', '/v1/knowledge', { key, body: { agent_id: agentId, title, text }, headers });
  expect(res.status, JSON.stringify(res.body)).to.equal(200);
  return res.body;
}

async function search(key: string, agentId: string, query: string, limit = 5) {
  const res = await request(
    'GET',
    `/v1/knowledge/search?agent_id=${agentId}&query=${encodeURIComponent(query)}&limit=${limit}`,
    { key },
  );
  expect(res.status, JSON.stringify(res.body)).to.equal(200);
  return res.body.data as {
    object: string;
    document: string;
    chunk: number;
    title: string;
    text: string;
    score: number;
  }[];
}

async function newAgent(t: Tenant, name = 'Knowledge agent') {
  const res = await request('POST', '/v1/agents', {
    key: t.testKey,
    body: { name, instructions: 'You help bicycle shop customers.' },
  });
  expect(res.status).to.equal(200);
  return res.body.id as string;
}

describe('knowledge', function () {
  let t: Tenant;
  before(async () => {
    t = await newTenant();
  });

  it('chunks by paragraphs with overlap, a few hundred words each', () => {
    const text = Array.from({ length: 40 }, (_, i) => `Paragraph ${i} ${'word '.repeat(38)}end${i}.`).join('\n\n');
    const chunks = chunkText(text);
    expect(chunks.length).to.be.within(6, 12);
    for (const c of chunks) expect(c.split(/\s+/).length).to.be.at.most(320 + 40);
    // Each chunk after the first starts with the end of the previous one.
    for (let i = 1; i < chunks.length; i++) {
      const tail = chunks[i - 1].split(/\s+/).slice(-40).join(' ');
      expect(chunks[i].replace(/\s+/g, ' ').startsWith(tail)).to.equal(true);
    }
    // Nothing is lost: every paragraph's last word is in some chunk.
    for (let i = 0; i < 40; i++) expect(chunks.some((c) => c.includes(`end${i}.`))).to.equal(true);
    // A paragraph longer than a chunk is split, and a blank text has no chunks.
    expect(chunkText('word '.repeat(1000)).length).to.be.greaterThan(3);
    expect(chunkText(' \n\n \t')).to.deep.equal([]);
  });

  it('adds a document, chunks it, lists it and finds it with BM25 search', async () => {
    const agentId = await newAgent(t);
    const text = longText(40, 'moonlight', 25);
    const doc = await addDoc(t.testKey, agentId, 'Shop manual', text);
    expect(doc).to.include({
      object: 'knowledge_document',
      agent_id: agentId,
      title: 'Shop manual',
      characters: text.length,
      livemode: false,
    });
    expect(doc.id).to.match(/^kdoc_[0-9a-z]{26}$/);
    expect(doc.chunks).to.be.greaterThan(1);
    expect(doc.created).to.be.a('number');

    const got = await request('GET', `/v1/knowledge/${doc.id}`, { key: t.testKey });
    expect(got.body).to.deep.equal(doc);
    const list = await request('GET', `/v1/knowledge?agent_id=${agentId}`, { key: t.testKey });
    expect(list.body).to.include({ object: 'list', has_more: false, url: '/v1/knowledge' });
    expect(list.body.data).to.deep.equal([doc]);

    await addDoc(t.testKey, agentId, 'Refunds', REFUND);
    await addDoc(t.testKey, agentId, 'Warranty', WARRANTY);
    const hits = await search(t.testKey, agentId, 'moonlight procedure');
    expect(hits[0]).to.include({ object: 'knowledge_chunk', document: doc.id, title: 'Shop manual' });
    expect(hits[0].text).to.contain('moonlight');
    const refund = await search(t.testKey, agentId, 'How many days do I have to return my bicycle?');
    expect(refund[0].title).to.equal('Refunds');
    expect(await search(t.testKey, agentId, 'what is the')).to.deep.equal([]); // stop words only
    expect(await search(t.testKey, agentId, 'zeppelin')).to.deep.equal([]);
  });

  it('never returns a replaced document once the API has answered, in any process', async () => {
    const agentId = await newAgent(t);
    const doc = await addDoc(t.testKey, agentId, 'Rules', 'The secret word is aardvark.');
    // Two other "processes": their own caches, warmed with the old text.
    const workerA = new KnowledgeSearcher();
    const workerB = new KnowledgeSearcher();
    const scope = { orgId: t.orgId, livemode: false, agentId };
    expect((await workerA.search({ ...scope, query: 'aardvark' }))[0].document).to.equal(doc.id);
    expect((await workerB.search({ ...scope, query: 'aardvark' }))[0].document).to.equal(doc.id);
    const words = ['buffalo', 'chinchilla', 'dromedary', 'echidna', 'flamingo'];
    let previous = 'aardvark';
    for (const word of words) {
      const res = await request('POST', `/v1/knowledge/${doc.id}`, {
        key: t.testKey,
        body: { text: `The secret word is ${word}.` },
      });
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      expect(res.body).to.include({ id: doc.id, title: 'Rules', chunks: 1 });
      for (const searcher of [workerA, workerB]) {
        expect(await searcher.search({ ...scope, query: previous })).to.deep.equal([]);
        expect((await searcher.search({ ...scope, query: word }))[0].text).to.equal(`The secret word is ${word}.`);
      }
      expect(await search(t.testKey, agentId, previous)).to.deep.equal([]);
      previous = word;
    }
    // Replacing the title alone keeps the text; superseded revisions and their chunks are gone.
    const renamed = await request('POST', `/v1/knowledge/${doc.id}`, {
      key: t.testKey,
      body: { title: 'House rules' },
    });
    expect(renamed.body).to.include({ title: 'House rules', characters: 'The secret word is flamingo.'.length });
    expect((await workerA.search({ ...scope, query: 'flamingo' }))[0].title).to.equal('House rules');
    expect(await KnowledgeRevision.countDocuments({ kdoc_id: doc.id })).to.equal(1);
    expect(await KnowledgeChunk.countDocuments({ kdoc_id: doc.id })).to.equal(1);
  });

  it('never returns a deleted document once the API has answered', async () => {
    const agentId = await newAgent(t);
    const keep = await addDoc(t.testKey, agentId, 'Hours', HOURS);
    const doc = await addDoc(t.testKey, agentId, 'Refunds', REFUND);
    const worker = new KnowledgeSearcher();
    const scope = { orgId: t.orgId, livemode: false, agentId };
    expect((await worker.search({ ...scope, query: 'refund' }))[0].document).to.equal(doc.id);

    const del = await request('DELETE', `/v1/knowledge/${doc.id}`, { key: t.testKey });
    expect(del.status).to.equal(200);
    expect(del.body).to.deep.equal({ id: doc.id, object: 'knowledge_document', deleted: true });
    expect(await worker.search({ ...scope, query: 'refund bicycle' })).to.deep.equal([]);
    expect(await search(t.testKey, agentId, 'refund')).to.deep.equal([]);
    expect((await search(t.testKey, agentId, 'showroom'))[0].document).to.equal(keep.id);
    expect((await request('GET', `/v1/knowledge/${doc.id}`, { key: t.testKey })).status).to.equal(404);
    expect((await request('DELETE', `/v1/knowledge/${doc.id}`, { key: t.testKey })).status).to.equal(404);
    const replace = await request('POST', `/v1/knowledge/${doc.id}`, { key: t.testKey, body: { text: 'back' } });
    expect(replace.status).to.equal(404);
    const list = await request('GET', `/v1/knowledge?agent_id=${agentId}`, { key: t.testKey });
    expect(list.body.data.map((d: any) => d.id)).to.deep.equal([keep.id]);
    expect(await KnowledgeChunk.countDocuments({ kdoc_id: doc.id })).to.equal(0);
  });

  it('brings a cached index forward by the documents changed, or rebuilds it past the kept change log', async () => {
    const agentId = await newAgent(t);
    const scope = { orgId: t.orgId, livemode: false, agentId };
    const first = await addDoc(t.testKey, agentId, 'First', 'The first document mentions a gazebo.');
    const warm = new KnowledgeSearcher();
    expect((await warm.search({ ...scope, query: 'gazebo' })).length).to.equal(1);
    // A few changes: the warm index takes in only those documents.
    const second = await addDoc(t.testKey, agentId, 'Second', 'The second document mentions a pergola.');
    expect((await warm.search({ ...scope, query: 'pergola' }))[0].document).to.equal(second.id);
    // More changes than the 50 change rows kept: the warm index is rebuilt from the store.
    for (let i = 0; i < 26; i++) {
      const d = await addDoc(t.testKey, agentId, `Filler ${i}`, `Filler number ${i} about a trellis.`);
      await request('DELETE', `/v1/knowledge/${d.id}`, { key: t.testKey });
    }
    await request('DELETE', `/v1/knowledge/${first.id}`, { key: t.testKey });
    expect(await warm.search({ ...scope, query: 'gazebo' })).to.deep.equal([]);
    expect(await warm.search({ ...scope, query: 'trellis' })).to.deep.equal([]);
    expect((await warm.search({ ...scope, query: 'pergola' }))[0].document).to.equal(second.id);
    expect((await warm.index(scope)).size).to.equal(1);

    // A head left behind (as a lost concurrent update on FerretDB would leave it) hides no change.
    const version = await knowledgeVersion(agentId);
    expect(version).to.equal(55);
    await KnowledgeHead.updateOne({ _id: agentId }, { $set: { seq: 1 } });
    expect(await knowledgeVersion(agentId)).to.equal(version);
    await request('POST', `/v1/knowledge/${second.id}`, {
      key: t.testKey,
      body: { text: 'The second document now mentions an arbour.' },
    });
    expect(await knowledgeVersion(agentId)).to.equal(version + 1);
    expect(await new KnowledgeSearcher().search({ ...scope, query: 'pergola' })).to.deep.equal([]);
    expect((await warm.search({ ...scope, query: 'arbour' }))[0].document).to.equal(second.id);
  });

  it('settles concurrent replaces of one document on the same text everywhere', async () => {
    const agentId = await newAgent(t);
    const doc = await addDoc(t.testKey, agentId, 'Race', 'The colour is grey.');
    const colours = ['amber', 'cobalt', 'crimson', 'emerald', 'indigo', 'saffron'];
    const results = await Promise.all(
      colours.map((c) =>
        request('POST', `/v1/knowledge/${doc.id}`, {
          key: t.testKey,
          body: { title: `Race ${c}`, text: `The colour is ${c}.` },
        }),
      ),
    );
    for (const r of results) expect(r.status, JSON.stringify(r.body)).to.equal(200);
    const final = (await request('GET', `/v1/knowledge/${doc.id}`, { key: t.testKey })).body;
    const winner = final.title.replace('Race ', '');
    expect(colours).to.include(winner);
    const scope = { orgId: t.orgId, livemode: false, agentId };
    for (const searcher of [new KnowledgeSearcher(), new KnowledgeSearcher()]) {
      for (const c of colours) {
        const hits = await searcher.search({ ...scope, query: c });
        expect(
          hits.map((x) => x.text),
          c,
        ).to.deep.equal(c === winner ? [`The colour is ${c}.`] : []);
      }
    }
    const api = await search(t.testKey, agentId, colours.join(' '));
    expect(api.map((x) => x.text)).to.deep.equal([`The colour is ${winner}.`]);
  });

  it('validates documents, takes texts up to 500,000 characters, and names the param', async () => {
    const agentId = await newAgent(t);
    const missing = await request('POST', '/v1/knowledge', { key: t.testKey, body: { agent_id: agentId, text: 'x' } });
    expect(missing.status).to.equal(400);
    expect(missing.body.error).to.include({ code: 'parameter_missing', param: 'title' });
    const unknown = await request('POST', '/v1/knowledge', {
      key: t.testKey,
      body: { agent_id: agentId, title: 't', text: 'x', link: 'u' },
    });
    expect(unknown.body.error).to.include({ code: 'parameter_unknown', param: 'link' });
    const blank = await request('POST', '/v1/knowledge', {
      key: t.testKey,
      body: { agent_id: agentId, title: 't', text: '  \n ' },
    });
    expect(blank.body.error).to.include({ code: 'parameter_invalid', param: 'text' });
    const tooLong = await request('POST', '/v1/knowledge', {
      key: t.testKey,
      body: { agent_id: agentId, title: 't', text: 'a'.repeat(KNOWLEDGE_LIMITS.maxCharacters + 1) },
    });
    expect(tooLong.status).to.equal(400);
    expect(tooLong.body.error).to.include({ code: 'parameter_invalid', param: 'text' });
    const noAgent = await request('POST', '/v1/knowledge', {
      key: t.testKey,
      body: { agent_id: 'agt_01m80np488q6rre43ctk0tmky1', title: 't', text: 'x' },
    });
    expect(noAgent.status).to.equal(404);
    expect(noAgent.body.error).to.include({ code: 'resource_missing', param: 'agent_id' });
    const doc = await addDoc(t.testKey, agentId, 'Short', 'A short text.');
    const nothing = await request('POST', `/v1/knowledge/${doc.id}`, { key: t.testKey, body: {} });
    expect(nothing.body.error).to.include({ code: 'parameter_missing', param: 'text' });

    // 500,000 two-byte characters: a body over the API's usual 1 MB, accepted here.
    const big = `${'é'.repeat(99)} `.repeat(KNOWLEDGE_LIMITS.maxCharacters / 100);
    const res = await request('POST', '/v1/knowledge', {
      key: t.testKey,
      body: { agent_id: agentId, title: 'Big', text: big },
    });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    expect(res.body.characters).to.equal(KNOWLEDGE_LIMITS.maxCharacters);
    expect(res.body.chunks).to.be.greaterThan(10);
  });

  it('allows at most 1,000 documents per agent (400 beyond)', async () => {
    const agentId = await newAgent(t);
    // 999 documents written straight to the store (the API would take minutes), then the API's own.
    const now = Math.floor(Date.now() / 1000);
    await KnowledgeDocument.collection.insertMany(
      Array.from({ length: 999 }, (_, i) => ({
        _id: `kdoc_fill${agentId.slice(-8)}${String(i).padStart(14, '0')}`,
        org_id: t.orgId,
        livemode: false,
        agent_id: agentId,
        created: now,
        deleted_ms: null,
      })) as never[],
    );
    const thousandth = await addDoc(t.testKey, agentId, 'One thousand', 'The thousandth document.');
    const over = await request('POST', '/v1/knowledge', {
      key: t.testKey,
      body: { agent_id: agentId, title: 'Over', text: 'One too many.' },
    });
    expect(over.status).to.equal(400);
    expect(over.body.error).to.include({ code: 'knowledge_document_limit', param: 'agent_id' });
    expect(await search(t.testKey, agentId, 'many')).to.deep.equal([]);
    await request('DELETE', `/v1/knowledge/${thousandth.id}`, { key: t.testKey });
    await addDoc(t.testKey, agentId, 'Again', 'Room for one more.');
  });

  it('replays a create with the same Idempotency-Key and refuses another body with it', async () => {
    const agentId = await newAgent(t);
    const headers = { 'Idempotency-Key': `kdoc-${Math.random()}` };
    const first = await addDoc(t.testKey, agentId, 'Once', 'Only once.', headers);
    const again = await request('POST', '/v1/knowledge', {
      key: t.testKey,
      body: { agent_id: agentId, title: 'Once', text: 'Only once.' },
      headers,
    });
    expect(again.status).to.equal(200);
    expect(again.headers.get('idempotent-replayed')).to.equal('true');
    expect(again.body).to.deep.equal(first);
    const other = await request('POST', '/v1/knowledge', {
      key: t.testKey,
      body: { agent_id: agentId, title: 'Twice', text: 'Other.' },
      headers,
    });
    expect(other.status).to.equal(422);
    const list = await request('GET', `/v1/knowledge?agent_id=${agentId}`, { key: t.testKey });
    expect(list.body.data.length).to.equal(1);
  });

  it('keeps test and live knowledge apart', async () => {
    const agentId = await newAgent(t);
    const doc = await addDoc(t.testKey, agentId, 'Test only', 'Visible in test mode.');
    expect((await request('GET', `/v1/knowledge/${doc.id}`, { key: t.liveKey })).status).to.equal(404);
    expect((await request('DELETE', `/v1/knowledge/${doc.id}`, { key: t.liveKey })).status).to.equal(404);
    expect((await request('GET', '/v1/knowledge', { key: t.liveKey })).body.data).to.deep.equal([]);
    const liveSearch = await request('GET', `/v1/knowledge/search?agent_id=${agentId}&query=visible`, {
      key: t.liveKey,
    });
    expect(liveSearch.status).to.equal(404);
    expect(liveSearch.body.error.param).to.equal('agent_id');
    const liveAdd = await request('POST', '/v1/knowledge', {
      key: t.liveKey,
      body: { agent_id: agentId, title: 't', text: 'x' },
    });
    expect(liveAdd.status).to.equal(404);
    const other = await newTenant();
    expect((await request('GET', `/v1/knowledge/${doc.id}`, { key: other.testKey })).status).to.equal(404);
  });

  describe('given to the assistant', () => {
    let agentId: string;
    let refundDoc: any;
    const phone = '+14155550177';

    before(async () => {
      agentId = await newAgent(t, 'Shop assistant');
      refundDoc = await addDoc(t.testKey, agentId, 'Refunds', REFUND);
      await addDoc(t.testKey, agentId, 'Warranty', WARRANTY);
      await addDoc(t.testKey, agentId, 'Hours', HOURS);
      const contact = await request('POST', '/v1/contacts', { key: t.testKey, body: { phone, name: 'Ana Diaz' } });
      expect(contact.status).to.equal(200);
      const records = await request('POST', '/v1/records', {
        key: t.testKey,
        body: {
          contact: { phone },
          records: [
            {
              type: 'order',
              title: 'Order 1234',
              text: 'Bought a blue city bicycle, delivered on 2 September.',
              data: { amount: 480, currency: 'EUR' },
              occurred_at: 1_788_000_000,
            },
            { type: 'note', text: 'Prefers to be called in the morning.', occurred_at: 1_780_000_000 },
          ],
        },
      });
      expect(records.status, JSON.stringify(records.body)).to.equal(200);
    });

    it("carries the contact's records and the best knowledge in the prompt, and records what the assistant knew", async () => {
      const res = await request('POST', '/v1/calls', {
        key: t.testKey,
        body: {
          to: phone,
          agent_id: agentId,
          simulation: { caller: ['How many days do I have to return my bicycle for a refund?'] },
        },
      });
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      expect(res.body.contact_id).to.match(/^cont_/);
      const call = await waitForCall(t.testKey, res.body.id);
      expect(call.contact_id).to.equal(res.body.contact_id);

      const req = h().llm.requests.find((r) => r.user === call.id)!;
      const system = req.messages[0].content!;
      expect(system).to.contain('You help bicycle shop customers.');
      expect(system).to.contain('Name: Ana Diaz');
      expect(system).to.contain('Bought a blue city bicycle, delivered on 2 September.');
      expect(system).to.contain('amount: 480');
      expect(system.indexOf('Bought a blue')).to.be.lessThan(system.indexOf('Prefers to be called')); // newest first
      expect(system).to.contain(REFUND);
      expect(req.tools!.map((x) => x.function.name)).to.include('search_knowledge');

      const tr = (await request('GET', `/v1/calls/${call.id}/transcript`, { key: t.testKey })).body;
      // The model's answer: the assistant's first turn with knowledge (the AI disclosure opens the call before it).
      const answer = tr.turns.find((x: any) => x.role === 'assistant' && x.knowledge);
      expect(answer.knowledge[0]).to.deep.equal({ document: refundDoc.id, chunk: 0, source: { title: 'Refunds' } });
      expect(tr.turns.find((x: any) => x.role === 'caller').knowledge).to.equal(undefined);
    });

    it('lets the assistant call search_knowledge and records the chunks it found', async () => {
      const res = await request('POST', '/v1/calls', {
        key: t.testKey,
        body: {
          to: phone,
          agent_id: agentId,
          simulation: { caller: ['TOOLONCE search_knowledge {"query":"frame cracks warranty"}'] },
        },
      });
      const call = await waitForCall(t.testKey, res.body.id);
      expect(call.status).to.equal('completed');
      const tr = (await request('GET', `/v1/calls/${call.id}/transcript`, { key: t.testKey })).body;
      const tool = tr.turns.find((x: any) => x.role === 'tool');
      expect(tool.tool).to.deep.equal({ name: 'search_knowledge', arguments: { query: 'frame cracks warranty' } });
      expect(tool.text).to.contain(WARRANTY);
      expect(tool.knowledge[0].document).to.match(/^kdoc_/);
      expect(tr.turns.map((x: any) => x.text)).to.include('Tool result received.');
      const second = h().llm.requests.filter((r) => r.user === call.id)[1];
      expect(second.messages.find((m) => m.role === 'tool')!.content).to.contain(WARRANTY);
      // Knowledge searches are metered: the prompt's (one per LLM request) and the tool's.
      const usage = await request('GET', '/v1/usage', { key: t.testKey });
      expect(usage.status, JSON.stringify(usage.body)).to.equal(200);
      expect(usage.body.totals.knowledge.searches).to.be.at.least(4);
    });

    it('no longer gives a deleted document to later calls, and finds the contact by contact_id', async () => {
      const extra = await addDoc(t.testKey, agentId, 'Parking', 'Customers park for free behind the showroom.');
      expect((await request('DELETE', `/v1/knowledge/${refundDoc.id}`, { key: t.testKey })).status).to.equal(200);
      const contacts = await request('GET', `/v1/contacts?phone=${encodeURIComponent(phone)}`, { key: t.testKey });
      const contactId = contacts.body.data[0].id;
      const res = await request('POST', '/v1/calls', {
        key: t.testKey,
        body: {
          to: '+14155550178',
          contact_id: contactId,
          agent_id: agentId,
          simulation: { caller: ['Can I return the bicycle for a refund? Where do I park?'] },
        },
      });
      expect(res.body.contact_id).to.equal(contactId);
      const call = await waitForCall(t.testKey, res.body.id);
      const system = h().llm.requests.find((r) => r.user === call.id)!.messages[0].content!;
      expect(system).to.not.contain('45 days');
      expect(system).to.contain('Customers park for free');
      expect(system).to.contain('Ana Diaz');
      const tr = (await request('GET', `/v1/calls/${call.id}/transcript`, { key: t.testKey })).body;
      const refs = tr.turns.flatMap((x: any) => x.knowledge ?? []).map((k: any) => k.document);
      expect(refs).to.include(extra.id).and.not.include(refundDoc.id);
    });

    it('does not offer search_knowledge to an agent without knowledge, nor a contact to an unknown number', async () => {
      const res = await request('POST', '/v1/calls', {
        key: t.testKey,
        body: { to: '+14155550179', agent_id: t.agentId, simulation: { caller: ['Hello'] } },
      });
      expect(res.body.contact_id).to.equal(null);
      const call = await waitForCall(t.testKey, res.body.id);
      const req = h().llm.requests.find((r) => r.user === call.id)!;
      expect(req.tools!.map((x) => x.function.name)).to.not.include('search_knowledge');
      expect(req.messages[0].content).to.not.contain('Records, newest first');
      const unknown = await request('POST', '/v1/calls', {
        key: t.testKey,
        body: { to: '+14155550179', agent_id: t.agentId, contact_id: 'cont_01m80np488q6rre43ctk0tmky1' },
      });
      expect(unknown.status).to.equal(404);
      expect(unknown.body.error).to.include({ code: 'resource_missing', param: 'contact_id' });
    });
  });
});
