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

/** Inputs of `assistantContextParts`: those of `assistantContext` but the query. */
export type AssistantContextScope = Omit<AssistantContextInput, 'query'>;

/** What a turn's context is made of before the query is known (`assistantContextParts`). */
export interface AssistantContextParts {
  contact: Awaited<ReturnType<typeof contactContext>>;
  index: Awaited<ReturnType<typeof knowledgeSearcher.index>>;
  /** The agent's `knowledge_citations`, read with the rest. */
  citations: boolean;
}

/**
 * The store reads of a turn's context that do not depend on the latest message: the contact's context,
 * the agent's knowledge index (as of its stored version: src/services/knowledge.ts `KnowledgeSearcher.index`)
 * and the agent's `knowledge_citations`, side by side (one round trip to the store).
 * @param opts.citationsAfterIndex read `knowledge_citations` only once the index has knowledge (a second
 *   round trip then, none for an agent without knowledge): for reads nobody waits for yet
 */
export async function assistantContextParts(
  input: AssistantContextScope,
  opts: { citationsAfterIndex?: boolean } = {},
): Promise<AssistantContextParts> {
  const tenant = { orgId: input.orgId, livemode: input.livemode };
  const citations = async () =>
    (await Agent.findById(input.agentId).select({ knowledge_citations: 1 }).lean())?.knowledge_citations === true;
  const [contact, index, cites] = await Promise.all([
    contactContext(tenant, { contactId: input.contactId, phone: input.phone }, RECORDS_CONTEXT_BUDGET),
    knowledgeSearcher.index({ ...tenant, livemode: input.agentLivemode ?? input.livemode, agentId: input.agentId }),
    opts.citationsAfterIndex ? false : citations(),
  ]);
  return { contact, index, citations: opts.citationsAfterIndex && index.size > 0 ? await citations() : cites };
}

/**
 * Loads the contact's context (name, phone, records newest first within about 4,000 characters) and the
 * top `PROMPT_KNOWLEDGE_CHUNKS` knowledge chunks for `query` (fresh as of the last answered change; hybrid
 * when an embedding model is configured), each with its source; with the agent's `knowledge_citations`
 * (read from the agent's row at each turn), the instruction to cite them (`CITATION_INSTRUCTION`).
 * @param parts the reads already made for this turn (`assistantContextParts`); absent: made now
 */
export async function assistantContext(
  input: AssistantContextInput,
  parts?: AssistantContextParts,
): Promise<AssistantContext> {
  const { contact, index, citations } = parts ?? (await assistantContextParts(input));
  const searched = index.size > 0 && input.query.trim() !== '';
  const hits = searched ? (await rankIndex(index, input.query, PROMPT_KNOWLEDGE_CHUNKS)).hits : [];
  const lines: string[] = [];
  if (contact) lines.push(contact.text);
  if (index.size > 0) {
    lines.push(
      'You have knowledge documents. Answer from them when they cover the question; call search_knowledge with a short query to look something else up. Do not invent facts they do not state.',
    );
  }
  if (index.size > 0 && citations) lines.push(CITATION_INSTRUCTION);
  if (hits.length) lines.push('Knowledge that may answer the latest message:', formatKnowledge(hits));
  return {
    text: lines.join('\n\n'),
    knowledge: hits.map(knowledgeRefOf),
    contactId: contact?.contactId ?? null,
    hasKnowledge: index.size > 0,
    searched,
  };
}
