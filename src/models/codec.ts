/**
 * The codec server's wire shape (Temporal's remote codec protocol,
 * https://docs.temporal.io/production-deployment/data-encryption): `temporal.api.common.v1.Payloads` in
 * proto3 JSON, `{"payloads":[{"metadata":{"encoding":"<base64>"},"data":"<base64>"}]}`, the same in and out.
 */
import { z } from 'zod';
import { apiObject } from './wire';

/** One payload in proto3 JSON: metadata values and data base64 (standard alphabet). */
export const CodecPayload = z.object({
  metadata: z
    .record(z.string(), z.string())
    .optional()
    .describe('Metadata by key, each value base64 (`encoding`, `encryption-key-id`…).'),
  data: z.string().optional().describe('The payload bytes, base64.'),
});

/** The request and answer of `POST /codec/decode` and `/codec/encode`. */
export const CodecPayloadsObject = apiObject(
  'CodecPayloads',
  'Temporal payloads in proto3 JSON (`temporal.api.common.v1.Payloads`), as the Temporal Web UI and CLI send them to a codec server.',
  z.object({ payloads: z.array(CodecPayload) }),
);
