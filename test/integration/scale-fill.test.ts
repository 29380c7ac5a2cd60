/**
 * The scale benchmark's fill (test/support/scale-fill.ts) writes what it claims: at a
 * tiny scale, each collection holds, for the filled organizations, exactly the rows the plan asks for and
 * the fill reports; the rows render through the API's own renderers (a list and a transcript answer 200).
 */
import { expect } from 'chai';
import { Call, CallTurn } from '../../src/models/calls';
import { Conversation, ConversationLogEntry, Message } from '../../src/models/conversations';
import { UsageRecord } from '../../src/models/usage';
import { Contact, ContactRecord } from '../../src/models/contacts';
import { KnowledgeChunk, KnowledgeDocument } from '../../src/models/knowledge';
import { Event } from '../../src/models/events';
import { WebhookAttempt, WebhookDelivery } from '../../src/models/webhooks';
import { BulkCall, BulkCallResult } from '../../src/models/bulk-calls';
import { createKey, createOrg } from '../../src/keys';
import { newId } from '../../src/shared/ids';
import { fillStore, otherTenants, scaledPlan } from '../support/scale-fill';
import { request } from '../support/harness';

describe('scale benchmark fill', () => {
  it('writes the planned rows of every collection, in the shape the API renders', async () => {
    const plan = scaledPlan(1 / 500);
    // The first organization exists (its key reads the rows back through the API); the second is live.
    const org = await createOrg('Scale fill');
    const [other] = otherTenants(1);
    const tenants = [
      { orgId: org.id, livemode: false, agentId: newId('agent') },
      { ...other, livemode: true },
    ];
    const { counts } = await fillStore(plan, tenants);
    const orgs = { org_id: { $in: tenants.map((t) => t.orgId) } };
    const webConversations = tenants.reduce((n, _, i) => {
      const conversations = Math.floor(plan.conversations / 2) + (i < plan.conversations % 2 ? 1 : 0);
      return n + Math.floor(conversations / plan.webEvery);
    }, 0);
    const expected = {
      calls: plan.calls,
      call_turns: plan.calls * plan.turnsPerCall,
      conversations: plan.conversations,
      messages: plan.conversations * plan.messagesPerConversation,
      conversation_log: webConversations * plan.messagesPerConversation,
      usage_records: plan.usageRows,
      contacts: plan.contacts,
      records: plan.contacts * plan.recordsPerContact,
      knowledge_documents: plan.knowledgeDocuments,
      knowledge_chunks: plan.knowledgeDocuments * plan.chunksPerDocument,
      events: plan.events,
      webhook_deliveries: plan.deliveries,
      webhook_attempts: plan.deliveries * plan.attemptsPerDelivery,
      bulk_calls: plan.campaigns,
      bulk_call_results: plan.campaigns * plan.resultsPerCampaign,
    };
    for (const [name, n] of Object.entries(expected)) expect(counts[name] ?? 0, name).to.equal(n);

    const callIds = (await Call.find(orgs, { _id: 1 }).lean()).map((c) => c._id);
    const conversationIds = (await Conversation.find(orgs, { _id: 1 }).lean()).map((c) => c._id);
    const kdocIds = (await KnowledgeDocument.find(orgs, { _id: 1 }).lean()).map((d) => d._id);
    const stored = {
      calls: callIds.length,
      call_turns: await CallTurn.countDocuments({ call_id: { $in: callIds } }),
      conversations: conversationIds.length,
      messages: await Message.countDocuments(orgs),
      conversation_log: await ConversationLogEntry.countDocuments({ conversation_id: { $in: conversationIds } }),
      usage_records: await UsageRecord.countDocuments(orgs),
      contacts: await Contact.countDocuments(orgs),
      records: await ContactRecord.countDocuments(orgs),
      knowledge_documents: kdocIds.length,
      knowledge_chunks: await KnowledgeChunk.countDocuments({ kdoc_id: { $in: kdocIds } }),
      events: await Event.countDocuments(orgs),
      webhook_deliveries: await WebhookDelivery.countDocuments(orgs),
      webhook_attempts: await WebhookAttempt.countDocuments(orgs),
      bulk_calls: await BulkCall.countDocuments(orgs),
      bulk_call_results: await BulkCallResult.countDocuments(orgs),
    };
    expect(stored).to.deep.equal(expected);

    // The rows are what the API reads: a filled organization's calls, a transcript, its events.
    const key = (await createKey({ orgId: org.id, mode: 'test', kind: 'secret' })).key;
    const list = await request('GET', '/v1/calls', { key });
    expect(list.status).to.equal(200);
    expect(list.body.data.length).to.be.greaterThan(0);
    const transcript = await request('GET', `/v1/calls/${list.body.data[0].id}/transcript`, { key });
    expect(transcript.status).to.equal(200);
    expect(transcript.body.turns).to.have.length(plan.turnsPerCall);
    expect((await request('GET', '/v1/events', { key })).status).to.equal(200);
    expect((await request('GET', '/v1/contacts', { key })).status).to.equal(200);
    expect((await request('GET', '/v1/conversations', { key })).status).to.equal(200);
  });
});
