/**
 * Text embeddings for knowledge retrieval by meaning (src/services/knowledge.ts): the `openai` package's
 * embeddings API (`POST /embeddings`, https://platform.openai.com/docs/api-reference/embeddings) at
 * `OPENAI_EMBEDDING_BASE_URL` (else `OPENAI_BASE_URL`), so any OpenAI-compatible embedding server works
 * (vLLM, Ollama, llama.cpp, text-embeddings-inference). Configured by `OPENAI_EMBEDDING_MODEL`; without
 * it every function here answers null and knowledge is searched by BM25 alone.
 *
 * Vectors are L2-normalized here (some servers do not normalize), so the inner product is the cosine
 * similarity whatever the server; they are stored as little-endian float32 (`encodeEmbedding`).
 */
import OpenAI from 'openai';
import { config } from '../config';

/** Inputs per embeddings request (OpenAI takes up to 2,048; smaller batches keep one request under ~1 MB). */
export const EMBEDDING_BATCH = 96;
/** Attempts per batch (the first and two retries, 250 ms then 1 s apart), before `EmbeddingUnavailableError`. */
const ATTEMPTS = 3;
const BACKOFF_MS = [250, 1_000];

/** The embedding server failed (or answered garbage) after the retries: the write or search cannot embed. */
export class EmbeddingUnavailableError extends Error {
  constructor(
    message: string,
    override readonly cause?: unknown,
  ) {
    super(message);
    this.name = 'EmbeddingUnavailableError';
  }
}

const LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

let client: OpenAI | undefined;
let clientKey = '';

/** The configured embedding model, or null when knowledge is searched by BM25 only. */
export function embeddingModel(): string | null {
  return config().openaiEmbeddingModel ?? null;
}

function embeddingClient(): OpenAI {
  const cfg = config();
  const key = `${cfg.openaiEmbeddingBaseUrl}|${cfg.openaiEmbeddingApiKey}`;
  if (!client || clientKey !== key) {
    client = new OpenAI({
      apiKey: cfg.openaiEmbeddingApiKey ?? 'not-needed',
      baseURL: cfg.openaiEmbeddingBaseUrl,
      maxRetries: 0,
      timeout: 20_000,
    });
    clientKey = key;
  }
  return client;
}

/** `v` scaled to unit length (a zero vector stays zero). */
export function normalize(v: ArrayLike<number>): number[] {
  let sum = 0;
  for (let i = 0; i < v.length; i++) sum += v[i] * v[i];
  const norm = Math.sqrt(sum) || 1;
  return Array.from(v, (x) => x / norm);
}

/** How hard `embedTexts` tries: attempts per batch (at most 3) and each request's timeout. */
export interface EmbedOptions {
  attempts?: number;
  timeoutMs?: number;
}

async function embedBatch(model: string, input: string[], opts: EmbedOptions): Promise<number[][]> {
  let last: unknown;
  const attempts = Math.min(ATTEMPTS, Math.max(1, opts.attempts ?? ATTEMPTS));
  for (let attempt = 0; attempt < attempts; attempt++) {
    if (attempt > 0) await new Promise((r) => setTimeout(r, BACKOFF_MS[attempt - 1]));
    try {
      const res = await embeddingClient().embeddings.create(
        { model, input, encoding_format: 'float' },
        opts.timeoutMs ? { timeout: opts.timeoutMs } : undefined,
      );
      const data = [...res.data].sort((a, b) => a.index - b.index);
      const dims = data[0]?.embedding.length ?? 0;
      if (data.length !== input.length || dims === 0 || data.some((d) => d.embedding.length !== dims))
        throw new Error(`the server answered ${data.length} embeddings of uneven sizes for ${input.length} inputs`);
      return data.map((d) => normalize(d.embedding));
    } catch (err) {
      last = err;
      // A refused request (bad model, bad key) will not succeed on a retry.
      if (err instanceof OpenAI.APIError && err.status && err.status >= 400 && err.status < 500 && err.status !== 429)
        break;
    }
  }
  const detail = last instanceof Error ? last.message : String(last);
  throw new EmbeddingUnavailableError(`The embedding model ${model} is unavailable: ${detail}`, last);
}

/**
 * The embeddings of `texts` (same order, unit length), in batches of `EMBEDDING_BATCH` sent one after the
 * other; each batch is tried 3 times (a 4xx other than 429 only once; `opts` may ask fewer, and a
 * shorter timeout than 20 s). Every knowledge write path calls it before storing chunk rows
 * (src/services/knowledge.ts `writeRevision`), and a search for its query (2 attempts of 1.5 s at most).
 * @returns null when no embedding model is configured (BM25 only); `[]` for no texts
 * @throws EmbeddingUnavailableError when a batch still fails, or the server answers the wrong count or
 *   uneven dimensions
 */
export async function embedTexts(texts: string[], opts: EmbedOptions = {}): Promise<number[][] | null> {
  const model = embeddingModel();
  if (!model) return null;
  const out: number[][] = [];
  for (let i = 0; i < texts.length; i += EMBEDDING_BATCH) {
    const batch = texts.slice(i, i + EMBEDDING_BATCH).map((t) => t || ' ');
    out.push(...(await embedBatch(model, batch, opts)));
  }
  const dims = out[0]?.length;
  if (out.some((v) => v.length !== dims))
    throw new EmbeddingUnavailableError(`The embedding model ${model} answered vectors of different sizes.`);
  return out;
}

/** An embedding as stored on a chunk row (`embedding`): little-endian float32, 4 bytes a dimension. */
export function encodeEmbedding(v: ArrayLike<number>): Buffer {
  const buf = Buffer.alloc(v.length * 4);
  for (let i = 0; i < v.length; i++) buf.writeFloatLE(v[i], i * 4);
  return buf;
}

/**
 * A stored embedding back as a Float32Array: from its bytes (a Buffer, or the driver's BSON Binary with
 * a `buffer`), or a plain number array (rows written as arrays are read too); null for anything else.
 */
export function decodeEmbedding(stored: unknown): Float32Array | null {
  if (Array.isArray(stored)) return Float32Array.from(stored as number[]);
  const bytes: Uint8Array | undefined =
    stored instanceof Uint8Array
      ? stored
      : stored && typeof stored === 'object' && (stored as { buffer?: unknown }).buffer instanceof Uint8Array
        ? (stored as { buffer: Uint8Array }).buffer
        : undefined;
  if (!bytes || bytes.length % 4 !== 0 || bytes.length === 0) return null;
  const copy = new Uint8Array(bytes); // aligned, and owned
  if (LITTLE_ENDIAN) return new Float32Array(copy.buffer, 0, copy.length / 4);
  const view = new DataView(copy.buffer);
  return Float32Array.from({ length: copy.length / 4 }, (_, i) => view.getFloat32(i * 4, true));
}
