/**
 * The fake OpenAI server (test/support/fake-llm.ts: deterministic embeddings) on a worker thread of its
 * own, so that its work (answering, serializing vectors) is not done on the event loop of the process
 * it serves, as an embedding server is another process in a deployment. bench/knowledge-retrieval.ts
 * uses it unless BENCH_EMBEDDING_INLINE=1 (the server on the benchmark's own event loop).
 * BENCH_EMBEDDING_DELAY_MS (default 0) makes each embeddings answer wait that long, as a remote model's
 * time would (`FakeLlm.embeddingDelayMs`).
 */
import { isMainThread, parentPort, Worker } from 'node:worker_threads';
import { startFakeLlm } from '../test/support/fake-llm';

/** BENCH_EMBEDDING_DELAY_MS: how long each embeddings answer of the fake server waits (ms, default 0). */
export function benchEmbeddingDelayMs(): number {
  return Math.max(0, Number(process.env.BENCH_EMBEDDING_DELAY_MS ?? 0) || 0);
}

/** Starts the server on a worker thread: its base URL, and `close` (ends the thread). */
export async function startFakeLlmThread(): Promise<{ baseUrl: string; close(): Promise<void> }> {
  const worker = new Worker(__filename);
  const baseUrl = await new Promise<string>((resolve, reject) => {
    worker.once('message', resolve);
    worker.once('error', reject);
  });
  return {
    baseUrl,
    close: async () => {
      await worker.terminate();
    },
  };
}

if (!isMainThread && parentPort) {
  const port = parentPort;
  void startFakeLlm().then((llm) => {
    llm.embeddingDelayMs = benchEmbeddingDelayMs();
    port.postMessage(llm.baseUrl);
  });
}
