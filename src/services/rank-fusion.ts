/**
 * Reciprocal rank fusion (Cormack, Clarke and Büttcher, "Reciprocal Rank Fusion outperforms Condorcet and
 * individual Rank Learning Methods", SIGIR 2009): each ranking gives an item 1 / (k + rank), rank from 1;
 * an item's fused score is the sum over the rankings that hold it. k = 60 is the paper's constant, the
 * one Elasticsearch, OpenSearch and Azure AI Search use. Scores only, no weights: BM25 scores and cosine
 * similarities are on different scales, ranks are not.
 */

/** The constant of reciprocal rank fusion. */
export const RRF_K = 60;

/**
 * Fuses rankings (each a list of ids, best first; an id listed twice in one ranking counts at its best
 * rank) into one, best first. Ties keep the order of first appearance (the first ranking's order first).
 * @returns `{id, score}` for every id in any ranking
 */
export function reciprocalRankFusion(rankings: string[][], k = RRF_K): { id: string; score: number }[] {
  const scores = new Map<string, number>();
  for (const ranking of rankings) {
    const seen = new Set<string>();
    ranking.forEach((id, i) => {
      if (seen.has(id)) return;
      seen.add(id);
      scores.set(id, (scores.get(id) ?? 0) + 1 / (k + i + 1));
    });
  }
  // Map order is insertion order, and Array.prototype.sort is stable: ties stay in first-appearance order.
  return [...scores].map(([id, score]) => ({ id, score })).sort((a, b) => b.score - a.score);
}
