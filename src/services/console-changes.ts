/**
 * The staff console's live changes ("new messages appear without reload"): one poller per
 * API process for all its console streams, over the change windows the store's rows carry (the store has
 * no change streams; DESIGN.md section 3), on the loop the widget's and the calls' streams use
 * (src/services/change-poller.ts `PollLoop`).
 *
 * Messages carry `window` (src/models/conversations.ts `changeWindow`) of their creation and of each status
 * change; conversations carry it of their last status change (hand-over, take-over, resume). While this
 * process serves at least one console stream, every `WIDGET_STREAM_POLL_MS` (200 ms) the poller reads the
 * messages and conversations of the current and the previous window: equality lookups on their `{window: 1}`
 * indexes, so an idle service reads nothing and a busy one the last 5–10 s of changes. A row whose
 * (window, status…) differs from the previous poll's is a change: each stream of the row's organization and
 * mode gets `message` (then its conversation) or `conversation`. The first poll, taken before the first
 * stream starts, only records what exists (changes after connect are sent, not before). With no stream the
 * poller stops; a failed poll is retried at the next tick (its changes are seen then, while in the windows).
 */
import { logger } from '../logger';
import {
  changeWindow,
  CHANGE_WINDOW_MS,
  Conversation,
  Message,
  renderConversation,
  renderMessage,
  type ConversationDoc,
  type MessageDoc,
} from '../models/conversations';
import type { WithId } from '../models/store';
import { PollLoop, type PollerState } from './change-poller';

/**
 * One change as a stream sends it: `event:` name, `data:` (the object as the REST API renders it), and
 * `id:`, the change's position: microseconds since the epoch when this process saw it (increasing within
 * the process, so a reconnecting console's `Last-Event-ID` says from when to resume, `changesSince`).
 */
export interface ConsoleChange {
  event: 'conversation' | 'message';
  data: unknown;
  id: number;
}

/** The last change id this process gave (ids only grow, even when the clock steps back). */
let lastChangeId = 0;
const nextChangeId = () => (lastChangeId = Math.max(lastChangeId + 1, Date.now() * 1000));

/** How far back a reconnecting console is caught up (ms); from further back it reloads its lists. */
export const RESUME_LIMIT_MS = 60_000;

/**
 * The changes a console of `orgId` in one mode missed since change `afterId` (`Last-Event-ID`, so a
 * console that reconnects misses nothing): every message and conversation of that organization and mode in the change windows from the
 * one before `afterId`'s time to now (at most `RESUME_LIMIT_MS` back: equality lookups on the `{window}`
 * indexes, one per 5-s window), messages first, each with a fresh id. At least once: a row changed just
 * before `afterId` may come again; the console updates its lists by id. Empty when `afterId` is older
 * than `RESUME_LIMIT_MS` (the console reloads its lists) or not a time at all.
 */
export async function changesSince(
  tenant: { orgId: string; livemode: boolean },
  afterId: number,
  nowMs = Date.now(),
): Promise<ConsoleChange[]> {
  const sinceMs = Math.floor(afterId / 1000);
  if (sinceMs > nowMs || nowMs - sinceMs > RESUME_LIMIT_MS) return [];
  const windows: string[] = [];
  for (let t = sinceMs - CHANGE_WINDOW_MS; t <= nowMs + CHANGE_WINDOW_MS; t += CHANGE_WINDOW_MS) {
    const w = changeWindow(Math.min(t, nowMs));
    if (!windows.includes(w)) windows.push(w);
  }
  const mine = <T extends { org_id: string; livemode: boolean }>(rows: T[][]) =>
    rows.flat().filter((r) => r.org_id === tenant.orgId && r.livemode === tenant.livemode);
  const [messages, conversations] = await Promise.all([
    Promise.all(windows.map((window) => Message.find({ window }).lean() as Promise<WithId<MessageDoc>[]>)).then(mine),
    Promise.all(
      windows.map((window) => Conversation.find({ window }).lean() as Promise<WithId<ConversationDoc>[]>),
    ).then(mine),
  ]);
  return [
    ...messages.map((m) => ({ event: 'message' as const, data: renderMessage(m), id: nextChangeId() })),
    ...conversations.map((c) => ({ event: 'conversation' as const, data: renderConversation(c), id: nextChangeId() })),
  ];
}

/** A console stream: its organization and mode, and where its changes go. */
export interface ConsoleWatcher {
  orgId: string;
  livemode: boolean;
  push(change: ConsoleChange): void;
}

const watchers = new Set<ConsoleWatcher>();
/** The previous poll's rows: id → signature. */
let seenMessages = new Map<string, string>();
let seenConversations = new Map<string, string>();

const messageSignature = (m: WithId<MessageDoc>) => `${m.window}|${m.status}`;
const conversationSignature = (c: WithId<ConversationDoc>) =>
  `${c.window}|${c.status}|${c.taken_by ?? ''}|${c.handoff_reason ?? ''}`;

/** This process's one console poller: runs while a stream is open; the first tick of a run records only. */
const loop = new PollLoop(
  (first) => poll(!first),
  () => watchers.size > 0,
);

/**
 * Registers a stream with this process's poller (started, and its first poll taken, before this resolves)
 * and returns the function that removes it.
 */
export async function watchConsoleChanges(watcher: ConsoleWatcher): Promise<() => void> {
  await loop.start(true).catch(() => undefined);
  watchers.add(watcher);
  return () => void watchers.delete(watcher);
}

/** The console poller's state in this process: streams watching, whether it runs, its ticks and queries. */
export function consolePollerState(): PollerState {
  return { watched: watchers.size, polling: loop.polling, polls: loop.polls, reads: loop.reads };
}

/** The rows of the current and previous change window of `model` (two queries, counted). */
async function recent<T>(find: (window: string) => Promise<T[]>): Promise<T[]> {
  const now = Date.now();
  loop.reads += 2;
  const rows = await Promise.all([changeWindow(now - CHANGE_WINDOW_MS), changeWindow(now)].map(find));
  return rows.flat();
}

/** One tick: what changed since the previous tick, sent to the streams it concerns (when `send`). */
async function poll(send: boolean): Promise<void> {
  try {
    const [messages, conversations] = await Promise.all([
      recent((window) => Message.find({ window }).lean() as Promise<WithId<MessageDoc>[]>),
      recent((window) => Conversation.find({ window }).lean() as Promise<WithId<ConversationDoc>[]>),
    ]);
    const nextMessages = new Map(messages.map((m) => [m._id, messageSignature(m)]));
    const nextConversations = new Map(conversations.map((c) => [c._id, conversationSignature(c)]));
    const changedMessages = messages.filter((m) => seenMessages.get(m._id) !== nextMessages.get(m._id));
    const changedConversations = new Map(
      conversations
        .filter((c) => seenConversations.get(c._id) !== nextConversations.get(c._id))
        .map((c) => [c._id, c] as const),
    );
    seenMessages = nextMessages;
    seenConversations = nextConversations;
    if (!send || watchers.size === 0) return;
    // A message's conversation is sent after it (its `last_message_at` moved), read by `_id`.
    for (const m of changedMessages)
      if (!changedConversations.has(m.conversation_id)) {
        loop.reads++;
        const c = (await Conversation.findById(m.conversation_id).lean()) as WithId<ConversationDoc> | null;
        if (c) changedConversations.set(c._id, c);
      }
    const out: [string, boolean, ConsoleChange][] = [
      ...changedMessages.map(
        (m) =>
          [m.org_id, m.livemode, { event: 'message', data: renderMessage(m), id: nextChangeId() }] as [
            string,
            boolean,
            ConsoleChange,
          ],
      ),
      ...[...changedConversations.values()].map(
        (c) =>
          [c.org_id, c.livemode, { event: 'conversation', data: renderConversation(c), id: nextChangeId() }] as [
            string,
            boolean,
            ConsoleChange,
          ],
      ),
    ];
    for (const [orgId, livemode, change] of out)
      for (const w of watchers) if (w.orgId === orgId && w.livemode === livemode) w.push(change);
  } catch (err) {
    logger.warn('console stream poll failed; retried at the next tick', { error: String(err) });
  }
}
