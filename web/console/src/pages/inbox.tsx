/**
 * Inbox (issue 35 item 2): WhatsApp, SMS and web conversations, those that need a person first; the
 * selected conversation's messages in order, the contact and their records beside them; a person replies
 * (`POST /v1/messages`, stored as `author: "person"` while the conversation needs a person), takes over (`POST /v1/conversations/{id}/handoff`) or gives back
 * (`POST /v1/conversations/{id}/resume`). New messages and conversations arrive through the org stream.
 */
import { useRoute } from 'preact-iso';
import { useEffect, useRef, useState } from 'preact/hooks';
import { api, listAll, qs, type ListPage } from '../api';
import { can, useSession } from '../session';
import { useStaff } from '../staff';
import { useOrgStream } from '../stream';
import type { Contact, ContactRecord, Conversation, Message } from '../types';
import { ActionButton, Badge, ErrorBox, Time, useLoad } from '../ui';

/** needs_person first, then the most recent activity first. */
export function inboxOrder(a: Conversation, b: Conversation): number {
  if (a.status !== b.status) return a.status === 'needs_person' ? -1 : 1;
  return (b.last_message_at ?? b.created) - (a.last_message_at ?? a.created);
}

/** Messages oldest first (ids are time-ordered within a second). */
function byTime(a: Message, b: Message): number {
  return a.created - b.created || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
}

function upsert<T extends { id: string }>(list: T[], item: T): T[] {
  const i = list.findIndex((x) => x.id === item.id);
  if (i < 0) return [...list, item];
  const copy = list.slice();
  copy[i] = { ...copy[i], ...item };
  return copy;
}

function ConversationList({ items, selected }: { items: Conversation[]; selected?: string }) {
  const staff = useStaff();
  if (items.length === 0) return <p class="muted">No conversations yet.</p>;
  return (
    <ul class="conv-list" aria-label="Conversations">
      {items.map((c) => (
        <li key={c.id} data-conversation={c.id} data-status={c.status} class={c.id === selected ? 'selected' : ''}>
          <a href={`/console/inbox/${c.id}`} aria-current={c.id === selected ? 'true' : undefined}>
            <span class="who">{c.customer_number}</span>
            <span class="meta">
              {c.channel} · <Time at={c.last_message_at ?? c.created} />
            </span>
            {c.status === 'needs_person' ? <Badge value="needs_person" /> : null}
            {c.taken_by ? <span class="muted"> taken by {staff.get(c.taken_by) ?? c.taken_by}</span> : null}
          </a>
        </li>
      ))}
    </ul>
  );
}

function MessageItem({ m }: { m: Message }) {
  return (
    <li class={`msg msg-${m.author}`} data-author={m.author} data-message={m.id}>
      <div class="msg-head">
        <strong>{m.author}</strong> <Time at={m.created} />
        {m.direction === 'outbound' ? <span class="muted"> · {m.status}</span> : null}
      </div>
      {m.tool_calls?.length ? (
        <ul class="tools" aria-label="Tool calls">
          {m.tool_calls.map((t, i) => (
            <li key={i}>
              tool <code>{t.name}</code> <code>{JSON.stringify(t.arguments ?? {})}</code>
            </li>
          ))}
        </ul>
      ) : null}
      <p class="msg-text">{m.text}</p>
    </li>
  );
}

function ContactPane({ contactId, number }: { contactId: string | null; number: string }) {
  const { data, error } = useLoad(async () => {
    let contact: Contact | null = null;
    if (contactId) contact = await api<Contact>('GET', `/v1/contacts/${contactId}`);
    else if (/^\+\d+$/.test(number)) {
      const page = await api<ListPage<Contact>>('GET', `/v1/contacts${qs({ phone: number })}`);
      contact = page.data[0] ?? null;
    }
    const records = contact
      ? (await api<ListPage<ContactRecord>>('GET', `/v1/contacts/${contact.id}/records?limit=20`)).data
      : [];
    return { contact, records };
  }, [contactId, number]);
  return (
    <aside class="contact-pane" aria-label="Contact">
      <h2>Contact</h2>
      <ErrorBox error={error} />
      {!data ? null : !data.contact ? (
        <p class="muted">No contact for {number}.</p>
      ) : (
        <>
          <p>
            <a href={`/console/contacts/${data.contact.id}`}>{data.contact.name ?? data.contact.phone}</a>
            <br />
            <span class="muted">{data.contact.phone}</span>
            {data.contact.do_not_call ? <Badge value="do_not_call" /> : null}
          </p>
          <h3>Records</h3>
          {data.records.length === 0 ? <p class="muted">No records.</p> : null}
          <ul class="records">
            {data.records.map((r) => (
              <li key={r.id}>
                <strong>{r.title ?? r.type ?? 'Record'}</strong> <Time at={r.occurred_at ?? r.created} />
                <p>{r.text}</p>
              </li>
            ))}
          </ul>
        </>
      )}
    </aside>
  );
}

function Thread({
  conversation,
  messages,
  onConversation,
}: {
  conversation: Conversation;
  messages: Message[];
  onConversation: (c: Conversation) => void;
}) {
  const { session } = useSession();
  const staff = useStaff();
  const [text, setText] = useState('');
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const end = useRef<HTMLLIElement>(null);
  useEffect(() => end.current?.scrollIntoView({ block: 'nearest' }), [messages.length]);
  const writer = can.write(session.user.role);
  const send = async (e: Event) => {
    e.preventDefault();
    if (!text.trim()) return;
    setBusy(true);
    setError(null);
    try {
      await api<Message>('POST', '/v1/messages', {
        channel: conversation.channel,
        to: conversation.customer_number,
        text,
      });
      setText('');
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };
  return (
    <section class="thread" aria-label="Conversation">
      <header class="thread-head">
        <h2>
          {conversation.customer_number} <span class="muted">({conversation.channel})</span>
        </h2>
        <span data-testid="conversation-status">
          <Badge value={conversation.status} />
        </span>
        {conversation.handoff_reason ? <span class="muted"> {conversation.handoff_reason}</span> : null}
        <span data-testid="taken-by">
          {conversation.taken_by
            ? `Taken by ${conversation.taken_by === session.user.id ? 'you' : (staff.get(conversation.taken_by) ?? conversation.taken_by)}`
            : conversation.status === 'needs_person'
              ? 'Waiting for a person'
              : 'The assistant answers'}
        </span>
        {writer ? (
          <span class="thread-actions">
            {conversation.status === 'open' ? (
              <ActionButton
                label="Take over"
                run={async () =>
                  onConversation(await api<Conversation>('POST', `/v1/conversations/${conversation.id}/handoff`, {}))
                }
              />
            ) : (
              <ActionButton
                label="Give back to assistant"
                run={async () =>
                  onConversation(await api<Conversation>('POST', `/v1/conversations/${conversation.id}/resume`))
                }
              />
            )}
          </span>
        ) : null}
      </header>
      <ol class="messages" aria-label="Messages" aria-live="polite">
        {messages.map((m) => (
          <MessageItem key={m.id} m={m} />
        ))}
        <li ref={end} class="end" aria-hidden="true" />
      </ol>
      {writer ? (
        <form class="reply" onSubmit={send}>
          <label for="reply-text">Reply as a person</label>
          <textarea
            id="reply-text"
            rows={2}
            value={text}
            onInput={(e) => setText(e.currentTarget.value)}
            onKeyDown={(e) => {
              if (e.key === 'Enter' && !e.shiftKey) {
                e.preventDefault();
                e.currentTarget.form?.requestSubmit();
              }
            }}
          />
          <button type="submit" class="primary" disabled={busy}>
            Send
          </button>
          <ErrorBox error={error} />
        </form>
      ) : (
        <p class="muted">Viewers read conversations; replies need the agent or admin role.</p>
      )}
    </section>
  );
}

export function InboxPage() {
  const id: string | undefined = useRoute().params.id;
  const [convs, setConvs] = useState<Conversation[]>([]);
  const [messages, setMessages] = useState<Message[]>([]);
  const [error, setError] = useState<unknown>(null);
  const [channel, setChannel] = useState('');
  const [reloads, setReloads] = useState(0);

  useEffect(() => {
    Promise.all([
      listAll<Conversation>(`/v1/conversations${qs({ status: 'needs_person', channel })}`, 200),
      api<ListPage<Conversation>>('GET', `/v1/conversations${qs({ limit: 100, channel })}`),
    ]).then(
      ([needs, recent]) => {
        let all: Conversation[] = needs;
        for (const c of recent.data) all = upsert(all, c);
        setConvs(all);
      },
      (e) => setError(e),
    );
  }, [channel, reloads]);

  useEffect(() => {
    if (!id) return setMessages([]);
    listAll<Message>(`/v1/conversations/${id}/messages`, 500).then(
      (ms) =>
        setMessages((cur) =>
          ms
            .reduce(
              upsert,
              cur.filter((m) => m.conversation_id === id),
            )
            .sort(byTime),
        ),
      (e) => setError(e),
    );
    api<Conversation>('GET', `/v1/conversations/${id}`).then(
      (c) => setConvs((cur) => upsert(cur, c)),
      (e) => setError(e),
    );
  }, [id, reloads]);

  useOrgStream(
    {
      reconnected: () => setReloads((n) => n + 1),
      conversation: (c) => setConvs((cur) => upsert(cur, c)),
      message: (m) => {
        if (m.conversation_id === id) setMessages((cur) => upsert(cur, m).sort(byTime));
        setConvs((cur) => {
          const c = cur.find((x) => x.id === m.conversation_id);
          return c ? upsert(cur, { ...c, last_message_at: Math.max(c.last_message_at ?? 0, m.created) }) : cur;
        });
      },
    },
    [id],
  );

  const sorted = convs.filter((c) => !channel || c.channel === channel).sort(inboxOrder);
  const current = convs.find((c) => c.id === id);
  return (
    <main id="main" class="inbox">
      <h1 class="sr-only">Inbox</h1>
      <div class="inbox-list">
        <label for="channel-filter">Channel</label>
        <select id="channel-filter" value={channel} onChange={(e) => setChannel(e.currentTarget.value)}>
          <option value="">All</option>
          <option value="whatsapp">WhatsApp</option>
          <option value="sms">SMS</option>
          <option value="web">Web</option>
        </select>
        <ErrorBox error={error} />
        <ConversationList items={sorted} selected={id} />
      </div>
      {current ? (
        <>
          <Thread
            conversation={current}
            messages={messages}
            onConversation={(c) => setConvs((cur) => upsert(cur, c))}
          />
          <ContactPane contactId={current.contact_id} number={current.customer_number} />
        </>
      ) : (
        <p class="muted pick">{id ? 'Loading…' : 'Pick a conversation.'}</p>
      )}
    </main>
  );
}
