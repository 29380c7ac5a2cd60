/**
 * The extraction thread of src/services/knowledge-extract.ts: takes `{bytes, filename?, contentType?}`
 * messages one at a time and answers `{ok: true, doc}` or `{ok: false, code, message}` (`code` the
 * `KnowledgeSourceError`'s, null for any other error). Started and stopped by knowledge-extract.ts only.
 */
import { parentPort } from 'node:worker_threads';
import { KnowledgeSourceError } from './knowledge-extract';
import { extractInThread } from './knowledge-extract-formats';

parentPort?.on('message', (m: { bytes: Uint8Array; filename?: string; contentType?: string }) => {
  const bytes = Buffer.from(m.bytes.buffer, m.bytes.byteOffset, m.bytes.byteLength);
  extractInThread({ bytes, filename: m.filename, contentType: m.contentType }).then(
    (doc) => parentPort!.postMessage({ ok: true, doc }),
    (err: unknown) =>
      parentPort!.postMessage({
        ok: false,
        code: err instanceof KnowledgeSourceError ? err.code : null,
        message: err instanceof Error ? err.message : String(err),
      }),
  );
});
