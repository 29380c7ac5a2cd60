/**
 * The next turn's context reads, started at the answer: a simulated call's scripted caller answers the
 * moment the model's answer comes (src/workflows/call-turns.ts), so its next line is received then, and
 * the store reads of the next request's context that do not depend on that line (the contact, the
 * agent's knowledge version and index, its citation setting: src/services/assistant-context.ts
 * `assistantContextParts`) can run while the answer goes back through the workflow, instead of after
 * the next LLM activity has started (one round trip to the store less between an answer and the next
 * request, bench/voice.ts).
 *
 * Freshness: the reads are as of the answer, which is when such a caller's next line is received; a
 * change answered before then is in them, as it is in a turn that reads at its start. They are used only
 * by the call's next request, only with the same context ids, and only within `PREFETCH_MAX_AGE_MS` of
 * the answer; anything else (a live call's caller, who listens to the answer for seconds and streams; a
 * scripted pause; a tool between; another worker) reads at the start of the request as before. A
 * persona's line (written by the simulator model after the answer) that comes within the bound counts
 * as heard at the answer too. Nothing durable depends on
 * them: they are reads, kept in this process only, and a worker that dies loses nothing but them.
 */
import { assistantContextParts, type AssistantContextParts, type AssistantContextScope } from './assistant-context';
import { contextPrefetches } from '../platform/metrics';

/** How long after the answer its prefetched reads may be used (ms): past it, the next request reads anew. */
export const PREFETCH_MAX_AGE_MS = 200;

interface Prefetched {
  /** The context ids the reads were made for (`contextKey`). */
  key: string;
  startedMs: number;
  parts: Promise<AssistantContextParts>;
  timer: ReturnType<typeof setTimeout>;
}

/** Per call: the reads started at its last answer, not taken yet. */
const prefetched = new Map<string, Prefetched>();

/** The key of a conversation's context ids: a prefetch is used only by a request with the same ids. */
export function contextKey(callId: string, ids: AssistantContextScope): string {
  return `${callId}:${ids.orgId}:${ids.livemode}:${ids.agentId}:${ids.agentLivemode ?? ''}:${ids.contactId ?? ''}:${ids.phone ?? ''}`;
}

/**
 * Starts the reads of call `callId`'s next context now (at an answer whose next request follows at once),
 * replacing any not taken. A failure is kept for the taker, who then reads anew. Dropped unused after
 * `PREFETCH_MAX_AGE_MS`. Each prefetch is counted once by `svc_context_prefetches_total` (`taken` or `unused`).
 */
export function prefetchContext(callId: string, ids: AssistantContextScope, nowMs = Date.now()): void {
  if (prefetched.has(callId)) contextPrefetches.inc({ result: 'unused' }); // replaced before it was taken
  drop(callId);
  // Started once the answer's result is on its way to the workflow (the same thread serializes both).
  const parts = new Promise<void>((resolve) => setImmediate(resolve)).then(() =>
    assistantContextParts(ids, { citationsAfterIndex: true }),
  );
  parts.catch(() => undefined); // observed by the taker, if any
  const timer = setTimeout(() => {
    if (prefetched.get(callId) !== entry) return;
    prefetched.delete(callId);
    contextPrefetches.inc({ result: 'unused' });
  }, PREFETCH_MAX_AGE_MS);
  timer.unref?.();
  const entry: Prefetched = { key: contextKey(callId, ids), startedMs: nowMs, parts, timer };
  prefetched.set(callId, entry);
}

/**
 * The reads prefetched for call `callId` at its last answer, if they were made for the same ids
 * (`contextKey`) less than `PREFETCH_MAX_AGE_MS` ago; null otherwise. Taken once: a later request reads anew.
 */
export function takePrefetchedContext(
  callId: string,
  ids: AssistantContextScope,
  nowMs = Date.now(),
): Promise<AssistantContextParts> | null {
  const entry = prefetched.get(callId);
  drop(callId);
  if (!entry) return null;
  const fresh = entry.key === contextKey(callId, ids) && nowMs - entry.startedMs <= PREFETCH_MAX_AGE_MS;
  contextPrefetches.inc({ result: fresh ? 'taken' : 'unused' });
  return fresh ? entry.parts : null;
}

/** Forgets what was prefetched for call `callId` (taken, or replaced: counted `unused` by `prefetchContext`). */
function drop(callId: string): void {
  const entry = prefetched.get(callId);
  if (!entry) return;
  clearTimeout(entry.timer);
  prefetched.delete(callId);
}
