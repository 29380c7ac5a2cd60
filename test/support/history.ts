/**
 * Reading payloads out of raw histories in tests: histories hold payloads sealed by the service's codec
 * (src/platform/payload-codec.ts), so a test that reads an input, a signal's argument or
 * a summary from `fetchHistory()` decodes it first, as the SDK does.
 */
import { defaultPayloadConverter, type Payload } from '@temporalio/common';
import { configuredCodec } from '../../src/platform/payload-codec';

/** The value of a payload of a raw history: opened with the codec, then converted from JSON. */
export async function decodePayload<T = unknown>(payload: Payload | null | undefined): Promise<T> {
  if (!payload) throw new Error('no payload to decode');
  const [opened] = await configuredCodec().decode([payload]);
  return defaultPayloadConverter.fromPayload<T>(opened);
}
