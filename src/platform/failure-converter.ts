/**
 * The service's failure converter, loaded by path (`dataConverter.failureConverterPath`,
 * src/platform/payload-codec.ts) by clients and workers and bundled into the workflow code: Temporal's
 * `DefaultFailureConverter` with `encodeCommonAttributes`, which moves a failure's message and stack trace
 * into `encodedAttributes`, a payload the encryption codec seals, and leaves `Encoded failure` as the
 * message the server stores (https://typescript.temporal.io/api/classes/common.DefaultFailureConverter).
 * Decoding restores both, so code that reads `err.message` sees the original. Failures recorded before it
 * (plain messages, no encoded attributes) decode as they are. Workflow-safe: imports only the SDK.
 */
import { DefaultFailureConverter } from '@temporalio/common';

/** The export the SDK looks for at `failureConverterPath`. */
export const failureConverter = new DefaultFailureConverter({ encodeCommonAttributes: true });
