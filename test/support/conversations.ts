/**
 * Helpers for the conversation tests, the history recorder and the benchmark: play the customer through
 * the test helper, read a conversation's messages oldest first, poll with a deadline, list events.
 */
import { request } from './harness';

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Polls until `until()` returns a truthy value, or fails naming `what` after `timeoutMs`. */
export async function eventually<T>(
  until: () => Promise<T | undefined | null | false>,
  what: string,
  timeoutMs = 30_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await until();
    if (v) return v as T;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(100);
  }
}

/** `POST /v1/test_helpers/inbound_messages`: the customer writes. */
export function inbound(key: string, body: Record<string, unknown>, headers: Record<string, string> = {}) {
  return request('POST', '/v1/test_helpers/inbound_messages', { key, body, headers });
}

/** Every message of a conversation, oldest first. */
export async function messagesOf(key: string, conversationId: string): Promise<any[]> {
  const res = await request('GET', `/v1/conversations/${conversationId}/messages?limit=100`, { key });
  if (res.status !== 200) throw new Error(`messages of ${conversationId}: ${JSON.stringify(res.body)}`);
  return [...res.body.data].reverse();
}

/** Waits until the conversation has `count` messages matching `filter` (default: any), and returns them. */
export async function waitForMessages(
  key: string,
  conversationId: string,
  count: number,
  filter: (m: any) => boolean = () => true,
  timeoutMs = 30_000,
): Promise<any[]> {
  return eventually(
    async () => {
      const list = (await messagesOf(key, conversationId)).filter(filter);
      return list.length >= count ? list : null;
    },
    `${count} messages in ${conversationId}`,
    timeoutMs,
  );
}

/** Events of the key's organization and mode (newest first), optionally only those about `objectId`. */
export async function eventsAbout(key: string, objectId?: string): Promise<any[]> {
  const res = await request('GET', '/v1/events?limit=100', { key });
  return res.body.data.filter((e: any) => !objectId || e.data.object.id === objectId);
}

/** A fresh customer number (+1 415 NXX XXXX, valid E.164), unique within a process. */
let customerSeq = 2_000_000 + Math.floor(Math.random() * 6_000_000);
export function customerNumber(): string {
  return `+1415${++customerSeq}`;
}
