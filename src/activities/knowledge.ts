/**
 * The knowledge activity: the `search_knowledge` tool's effect (src/workflows/assistant.ts), a search
 * (BM25, fused with vectors when an embedding model is configured) of the agent's knowledge documents through src/services/knowledge.ts, fresh as of the last change the
 * API answered.
 */
import { searchKnowledge as search, type KnowledgeHit } from '../services/knowledge';
import { knowledgeSearchUsage, recordUsage } from '../services/usage';
import { activityKey } from '../platform/temporal';

export interface SearchKnowledgeInput {
  orgId: string;
  livemode: boolean;
  agentId: string;
  query: string;
  /** At most this many chunks (default 3). */
  limit?: number;
}

/** The best chunks for `query`, best first; an empty list when nothing matches. Metered once (usage `knowledge.searches`), whatever the retries. */
export async function searchKnowledge(input: SearchKnowledgeInput): Promise<{ hits: KnowledgeHit[] }> {
  const { hits } = await search({
    orgId: input.orgId,
    livemode: input.livemode,
    agentId: input.agentId,
    query: input.query,
    limit: input.limit ?? 3,
  });
  await recordUsage(
    knowledgeSearchUsage({
      orgId: input.orgId,
      livemode: input.livemode,
      key: `tool:${activityKey()}`,
      subjectId: input.agentId,
      occurredMs: Date.now(),
    }),
  );
  return { hits };
}
