/**
 * The org's live feed (`GET /console/api/stream`, server-sent events `conversation` and `message` for the
 * session's org and mode): one EventSource shared by the pages that listen, reconnecting by itself
 * (EventSource retries; the server does not replay a cut, so listeners reload on `reconnected`).
 */
import { useEffect } from 'preact/hooks';
import type { Conversation, Message } from './types';

type Listener = {
  conversation?: (c: Conversation) => void;
  message?: (m: Message) => void;
  /** The feed came back after a cut: events in between are not replayed, so reload. */
  reconnected?: () => void;
};
const listeners = new Set<Listener>();
let source: EventSource | null = null;

function open() {
  source = new EventSource('/console/api/stream');
  let opened = false;
  source.addEventListener('open', () => {
    if (opened) for (const l of listeners) l.reconnected?.();
    opened = true;
  });
  for (const kind of ['conversation', 'message'] as const)
    source.addEventListener(kind, (e) => {
      let data: unknown;
      try {
        data = JSON.parse((e as MessageEvent<string>).data);
      } catch {
        return;
      }
      for (const l of listeners) (l[kind] as ((d: unknown) => void) | undefined)?.(data);
    });
}

/** Listens to the feed while the component is mounted. */
export function useOrgStream(listener: Listener, deps: unknown[]) {
  useEffect(() => {
    listeners.add(listener);
    if (!source) open();
    return () => {
      listeners.delete(listener);
      if (listeners.size === 0) {
        source?.close();
        source = null;
      }
    };
  }, deps);
}
