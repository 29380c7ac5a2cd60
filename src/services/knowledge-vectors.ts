/**
 * The vector side of an agent's knowledge index (src/services/knowledge.ts `KnowledgeIndex`): an HNSW
 * graph by the `usearch` library (Unum, Apache-2.0; N-API prebuilt binaries for Linux, macOS and Windows
 * in the npm package, no build step), cosine metric over float32 vectors. One per agent and process, kept
 * in step with the store like the BM25 side: chunks of changed documents are removed and added again.
 *
 * HNSW parameters: connectivity (M) 16, expansion 128 when adding (usearch's and hnswlib's usual value)
 * and 256 when searching. With the usual 64 the index returned about half of the true 10 nearest chunks
 * of bench/knowledge-retrieval.ts's corpus at 5,000 chunks (near-uniform vectors, a graph index's worst
 * case); 256 returned 0.86 of them, for under 1 ms more per search (the benchmark's "vector" and
 * "vector, exact (no index)" rows measure the gap that is left).
 */
import { Index, MetricKind, ScalarKind } from 'usearch';

/** HNSW graph parameters (see the module docstring). */
export const HNSW = { connectivity: 16, expansionAdd: 128, expansionSearch: 256 };

/** Nearest neighbours by cosine similarity of string-keyed vectors of one dimension. */
export class VectorIndex {
  private index: Index | null = null;
  private dims = 0;
  private nextKey = 1n;
  private readonly keys = new Map<string, bigint>();
  private readonly ids = new Map<bigint, string>();

  /** Vectors held. */
  get size(): number {
    return this.keys.size;
  }

  /** Their dimension (0 while empty of any vector so far). */
  get dimensions(): number {
    return this.dims;
  }

  /**
   * Adds vectors (an id already held is replaced). The first vector fixes the dimension; a vector of
   * another dimension is skipped (a chunk embedded by another model) and counted in the result.
   * @returns how many were skipped
   */
  add(items: { id: string; vector: Float32Array }[]): number {
    let skipped = 0;
    const fresh: { id: string; vector: Float32Array }[] = [];
    for (const item of items) {
      if (this.dims === 0) this.dims = item.vector.length;
      if (item.vector.length !== this.dims) skipped++;
      else fresh.push(item);
    }
    if (fresh.length === 0) return skipped;
    this.remove(fresh.map((f) => f.id));
    this.index ??= new Index({
      dimensions: this.dims,
      metric: MetricKind.Cos,
      quantization: ScalarKind.F32,
      connectivity: HNSW.connectivity,
      expansion_add: HNSW.expansionAdd,
      expansion_search: HNSW.expansionSearch,
      multi: false,
    });
    const keys = new BigUint64Array(fresh.length);
    const matrix = new Float32Array(fresh.length * this.dims);
    fresh.forEach((f, i) => {
      const key = this.nextKey++;
      keys[i] = key;
      matrix.set(f.vector, i * this.dims);
      this.keys.set(f.id, key);
      this.ids.set(key, f.id);
    });
    this.index.add(keys, matrix, 0);
    return skipped;
  }

  /** Removes the vectors of `ids` (ids not held are ignored). */
  remove(ids: Iterable<string>): void {
    const keys: bigint[] = [];
    for (const id of ids) {
      const key = this.keys.get(id);
      if (key === undefined) continue;
      keys.push(key);
      this.keys.delete(id);
      this.ids.delete(key);
    }
    if (keys.length && this.index) this.index.remove(BigUint64Array.from(keys));
  }

  /**
   * The ids of the `k` vectors nearest `query`, nearest first, with their cosine similarity (1 − the
   * cosine distance); empty when the index is empty or `query` is of another dimension.
   */
  search(query: Float32Array, k: number): { id: string; similarity: number }[] {
    if (!this.index || this.keys.size === 0 || query.length !== this.dims || k <= 0) return [];
    const found = this.index.search(query, Math.min(k, this.keys.size), 1);
    const out: { id: string; similarity: number }[] = [];
    for (let i = 0; i < found.keys.length; i++) {
      const id = this.ids.get(found.keys[i]);
      if (id !== undefined) out.push({ id, similarity: 1 - found.distances[i] });
    }
    return out;
  }
}
