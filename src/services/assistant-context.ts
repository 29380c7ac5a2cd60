/**
 * What the assistant knows on a turn, for every channel (calls through the LLM activity; conversations
 * and the widget call it the same way): the contact's name and recent records (src/services/contacts.ts) and
 * the agent's knowledge chunks best matching the latest message (src/services/knowledge.ts), as text for the
 * system message, plus the ids of the chunks given (recorded on the transcript turn).
 */
import { formatKnowledgeHits, knowledgeRefOf, type KnowledgeRef } from '../shared/assistant';
import { Agent } from '../models/agents';
import { contactContext, RECORDS_CONTEXT_BUDGET } from './contacts';
import { knowledgeSearcher, rankIndex, type KnowledgeHit } from './knowledge';

/** Knowledge chunks put in the prompt for the latest message. */
export const PROMPT_KNOWLEDGE_CHUNKS = 3;

/** Inputs of `assistantContext`. */
export interface AssistantContextInput {
  orgId: string;
  livemode: boolean;
  agentId: string;
  /** The agent's mode when it differs from the call's (a live agent's replayed call): its knowledge is read there. */
  agentLivemode?: boolean;
  /** The contact, by id (calls) or by phone (conversations: the customer's number); neither for none. */
  contactId?: string | null;
  phone?: string | null;
  /** The latest caller or customer message: what the knowledge is searched for. Empty: no search. */
  query: string;
}

/** What `assistantContext` found. */
export interface AssistantContext {
  /** Text to append to the system message ('' when there is nothing to add). */
  text: string;
  /** The chunks given, best first. */
  knowledge: KnowledgeRef[];
  /** The contact found, or null. */
  contactId: string | null;
  /** True when the agent has knowledge documents (so the `search_knowledge` tool is worth offering). */
  hasKnowledge: boolean;
  /** True when the knowledge was searched (it has documents and the query has words): a metered search. */
  searched: boolean;
}

/** Renders search hits for the model: numbered, with the document's title and source. */
export function formatKnowledge(hits: KnowledgeHit[]): string {
  return formatKnowledgeHits(hits);
}

/** What the system message asks of an agent with `knowledge_citations` on. */
export const CITATION_INSTRUCTION =
  'Cite your sources: when your answer uses the knowledge, name where it comes from by its title (and its page, file or web address when it has one), for example "(source: Returns and refunds)".';

/**
 * Loads the contact's context (name, phone, records newest first within about 4,000 characters) and the
 * top `PROMPT_KNOWLEDGE_CHUNKS` knowledge chunks for `query` (fresh as of the last answered change; hybrid
 * when an embedding model is configured), each with its source; with the agent's `knowledge_citations`
 * (read from the agent's row at each turn), the instruction to cite them (`CITATION_INSTRUCTION`).
 */
export async function assistantContext(input: AssistantContextInput): Promise<AssistantContext> {
  const tenant = { orgId: input.orgId, livemode: input.livemode };
  const [contact, index, agent] = await Promise.all([
    contactContext(tenant, { contactId: input.contactId, phone: input.phone }, RECORDS_CONTEXT_BUDGET),
    knowledgeSearcher.index({ ...tenant, livemode: input.agentLivemode ?? input.livemode, agentId: input.agentId }),
    Agent.findById(input.agentId).select({ knowledge_citations: 1 }).lean(),
  ]);
  const searched = index.size > 0 && input.query.trim() !== '';
  const hits = searched ? (await rankIndex(index, input.query, PROMPT_KNOWLEDGE_CHUNKS)).hits : [];
  const parts: string[] = [];
  if (contact) parts.push(contact.text);
  if (index.size > 0) {
    parts.push(
      'You have knowledge documents. Answer from them when they cover the question; call search_knowledge with a short query to look something else up. Do not invent facts they do not state.',
    );
  }
  if (index.size > 0 && agent?.knowledge_citations === true) parts.push(CITATION_INSTRUCTION);
  if (hits.length) parts.push('Knowledge that may answer the latest message:', formatKnowledge(hits));
  return {
    text: parts.join('\n\n'),
    knowledge: hits.map(knowledgeRefOf),
    contactId: contact?.contactId ?? null,
    hasKnowledge: index.size > 0,
    searched,
  };
}
