/**
 * A list page reads a page's worth of rows from the embedded store, however many rows the tenant has (calls,
 * events, contacts, conversations, a conversation's messages; the other lists and the filters:
 * list-pushdown-filters.test.ts): our
 * FerretDB build carries scripts/ferretdb-patches/0003-sqlite-sort-and-ranges-use-indexes.patch, which lets
 * SQLite answer `find(filter).sort({_id: -1}).limit(n)` (and the `_id` bound of `starting_after` /
 * `ending_before`) by walking an index `{<the list's equality filter>, _id}`, so that FerretDB stops reading
 * at the limit. Without it FerretDB reads every row of the tenant, sorts them in memory and keeps the first page.
 *
 * Rows read are counted by the store itself: the patched FerretDB reports, in serverStatus, MongoDB's
 * `metrics.queryExecutor.scannedObjects` (documents its queries read from SQLite). A request's count is
 * compared with the same request on an empty tenant of the same shape, which reads the same other rows
 * (the API key, the organization…); the difference is the list's own rows. On a build without the patch
 * the statistic is missing and every test here fails; with the sort pushdown disabled the difference is
 * 5,000.
 */
import { expect } from 'chai';
import { createKey, createOrg } from '../../src/keys';
import { newId } from '../../src/shared/ids';
import { fillStore } from '../support/scale-fill';
import { NONE, idsOf, rowsRead } from '../support/rows-read';

const ROWS = 5_000;
const LIMIT = 20;

describe('lists read one page of rows from the embedded store (FerretDB SQLite sort pushdown patch)', function () {
  this.timeout(600_000);
  let filledKey: string;
  let emptyKey: string;
  /** Per list: its path on the filled tenant and on the empty one, and the filled tenant's ids, newest first. */
  const lists: Record<string, { filled: string; empty: string; ids: string[] }> = {};

  before(async () => {
    const filled = await createOrg('List pushdown, filled');
    const empty = await createOrg('List pushdown, empty');
    const agentId = newId('agent');
    const tenant = { orgId: filled.id, livemode: false, agentId };
    await fillStore({ ...NONE, calls: ROWS, events: ROWS, contacts: ROWS, conversations: ROWS }, [tenant]);
    // One conversation of the same tenant with 5,000 messages, and one of the empty tenant with none.
    await fillStore({ ...NONE, conversations: 1, messagesPerConversation: ROWS }, [tenant]);
    await fillStore({ ...NONE, conversations: 1 }, [{ orgId: empty.id, livemode: false, agentId }]);
    filledKey = (await createKey({ orgId: filled.id, mode: 'test', kind: 'secret' })).key;
    emptyKey = (await createKey({ orgId: empty.id, mode: 'test', kind: 'secret' })).key;

    const tenantOf = (orgId: string) => ({ org_id: orgId, livemode: false });
    for (const [name, collection] of [
      ['calls', 'calls'],
      ['events', 'events'],
      ['contacts', 'contacts'],
      ['conversations', 'conversations'],
    ] as const) {
      lists[name] = { filled: `/v1/${name}`, empty: `/v1/${name}`, ids: await idsOf(collection, tenantOf(filled.id)) };
    }
    // The conversation that has messages is the newest of the filled tenant's (the second fill).
    const [chattyConversation] = lists.conversations.ids;
    const [emptyConversation] = await idsOf('conversations', tenantOf(empty.id));
    lists.messages = {
      filled: `/v1/conversations/${chattyConversation}/messages`,
      empty: `/v1/conversations/${emptyConversation}/messages`,
      ids: await idsOf('messages', { conversation_id: chattyConversation }),
    };
    for (const [name, list] of Object.entries(lists)) expect(list.ids.length, name).to.be.at.least(ROWS);
  });

  for (const name of ['calls', 'events', 'contacts', 'conversations', 'messages']) {
    it(`answers the first page of ${name} reading at most limit + 1 of 5,000 rows`, async () => {
      const list = lists[name];
      const empty = await rowsRead(`${list.empty}?limit=${LIMIT}`, emptyKey);
      // (the empty tenant's one conversation, the one whose empty message list is the baseline of messages)
      expect(empty.body.data).to.have.length(name === 'conversations' ? 1 : 0);
      const filled = await rowsRead(`${list.filled}?limit=${LIMIT}`, filledKey);
      expect(filled.body.data.map((c: { id: string }) => c.id)).to.deep.equal(list.ids.slice(0, LIMIT));
      expect(filled.body.has_more).to.equal(true);
      expect(filled.rows - empty.rows, `rows read: ${filled.rows} (empty tenant: ${empty.rows})`).to.be.at.most(
        LIMIT + 1,
      );
    });

    it(`answers a page of ${name} by starting_after, and one by ending_before, the same way`, async () => {
      const list = lists[name];
      const cursor = list.ids[2_500];
      const empty = await rowsRead(`${list.empty}?limit=${LIMIT}&starting_after=${cursor}`, emptyKey);
      const after = await rowsRead(`${list.filled}?limit=${LIMIT}&starting_after=${cursor}`, filledKey);
      expect(after.body.data.map((c: { id: string }) => c.id)).to.deep.equal(list.ids.slice(2_501, 2_501 + LIMIT));
      expect(after.rows - empty.rows, `rows read: ${after.rows} (empty tenant: ${empty.rows})`).to.be.at.most(
        LIMIT + 1,
      );

      const before = await rowsRead(`${list.filled}?limit=${LIMIT}&ending_before=${cursor}`, filledKey);
      expect(before.body.data.map((c: { id: string }) => c.id)).to.deep.equal(list.ids.slice(2_500 - LIMIT, 2_500));
      expect(before.rows - empty.rows, `rows read: ${before.rows} (empty tenant: ${empty.rows})`).to.be.at.most(
        LIMIT + 1,
      );
    });
  }
});
