/**
 * Contacts (issue 35 item 4): search by phone or external id (what `GET /v1/contacts` finds by), the
 * newest contacts otherwise; a contact's page with records (newest first), calls and conversations, a
 * form to add a record (`POST /v1/records`) and the `do_not_call` toggle (`POST /v1/contacts`).
 */
import { useRoute } from 'preact-iso';
import { useState } from 'preact/hooks';
import { api, listAll, qs, type ListPage } from '../api';
import { can, useSession } from '../session';
import type { Call, Contact, ContactRecord, Conversation } from '../types';
import { Badge, Card, ErrorBox, Time, useLoad } from '../ui';

export function ContactsPage() {
  const [q, setQ] = useState('');
  const [search, setSearch] = useState('');
  const { data, error } = useLoad(() => {
    const term = search.trim();
    const filter = !term ? {} : /^\+\d+$/.test(term) ? { phone: term } : { external_id: term };
    return api<ListPage<Contact>>('GET', `/v1/contacts${qs({ ...filter, limit: 50 })}`);
  }, [search]);
  return (
    <main id="main">
      <h1>Contacts</h1>
      <form
        class="filters"
        role="search"
        onSubmit={(e) => {
          e.preventDefault();
          setSearch(q);
        }}
      >
        <label for="contact-q">Phone (E.164) or external id</label>
        <input id="contact-q" value={q} onInput={(e) => setQ(e.currentTarget.value)} placeholder="+14155550123" />
        <button type="submit">Search</button>
      </form>
      <ErrorBox error={error} />
      <div class="table-wrap">
        <table>
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Phone</th>
              <th scope="col">External id</th>
              <th scope="col">Do not call</th>
              <th scope="col">Updated</th>
            </tr>
          </thead>
          <tbody>
            {(data?.data ?? []).map((c) => (
              <tr key={c.id}>
                <td>
                  <a href={`/console/contacts/${c.id}`}>{c.name ?? c.phone ?? c.id}</a>
                </td>
                <td>{c.phone ?? '—'}</td>
                <td>{c.external_id ?? '—'}</td>
                <td>{c.do_not_call ? 'yes' : 'no'}</td>
                <td>
                  <Time at={c.updated} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {data && data.data.length === 0 ? <p class="muted">No contact found.</p> : null}
    </main>
  );
}

function AddRecord({ contact, onAdded }: { contact: Contact; onAdded: () => void }) {
  const [title, setTitle] = useState('');
  const [type, setType] = useState('');
  const [text, setText] = useState('');
  const [error, setError] = useState<unknown>(null);
  return (
    <form
      class="stack"
      onSubmit={async (e) => {
        e.preventDefault();
        setError(null);
        try {
          const key = contact.external_id ? { external_id: contact.external_id } : { phone: contact.phone! };
          await api('POST', '/v1/records', {
            contact: key,
            records: [{ title: title || undefined, type: type || undefined, text }],
          });
          setTitle('');
          setType('');
          setText('');
          onAdded();
        } catch (err) {
          setError(err);
        }
      }}
    >
      <label for="rec-title">Title</label>
      <input id="rec-title" value={title} onInput={(e) => setTitle(e.currentTarget.value)} />
      <label for="rec-type">Type</label>
      <input id="rec-type" value={type} placeholder="note" onInput={(e) => setType(e.currentTarget.value)} />
      <label for="rec-text">Text</label>
      <textarea id="rec-text" required rows={3} value={text} onInput={(e) => setText(e.currentTarget.value)} />
      <ErrorBox error={error} />
      <button type="submit" class="primary">
        Add record
      </button>
    </form>
  );
}

export function ContactPage() {
  const id: string = useRoute().params.id!;
  const { session } = useSession();
  const contact = useLoad(() => api<Contact>('GET', `/v1/contacts/${id}`), [id]);
  const records = useLoad(() => listAll<ContactRecord>(`/v1/contacts/${id}/records`, 200), [id]);
  const convs = useLoad(
    () =>
      contact.data?.phone
        ? api<ListPage<Conversation>>('GET', `/v1/conversations${qs({ customer_number: contact.data.phone })}`)
        : Promise.resolve(null),
    [contact.data?.phone],
  );
  // The contact's newest calls (issue 35 item 4), from the `{org_id, livemode, contact_id, _id}` index.
  const calls = useLoad(
    () => api<ListPage<Call>>('GET', `/v1/calls${qs({ contact_id: id, limit: 25 })}`).then((p) => p.data),
    [id],
  );
  const [dncError, setDncError] = useState<unknown>(null);
  const c = contact.data;
  if (contact.error)
    return (
      <main id="main">
        <ErrorBox error={contact.error} />
      </main>
    );
  if (!c)
    return (
      <main id="main">
        <p role="status">Loading…</p>
      </main>
    );
  const sorted = (records.data ?? [])
    .slice()
    .sort((a, b) => (b.occurred_at ?? b.created) - (a.occurred_at ?? a.created));
  return (
    <main id="main">
      <h1>{c.name ?? c.phone ?? c.id}</h1>
      <p>
        {c.phone ?? '—'} · external id {c.external_id ?? '—'} · <span class="mono muted">{c.id}</span>
      </p>
      <label class="toggle">
        <input
          type="checkbox"
          checked={c.do_not_call}
          disabled={!can.write(session.user.role)}
          onChange={async (e) => {
            setDncError(null);
            const want = e.currentTarget.checked;
            try {
              const key = c.external_id ? { external_id: c.external_id } : { phone: c.phone! };
              contact.setData(await api<Contact>('POST', '/v1/contacts', { ...key, do_not_call: want }));
            } catch (err) {
              setDncError(err);
              contact.reload();
            }
          }}
        />
        Do not call
      </label>
      <ErrorBox error={dncError} />
      <div class="grid2">
        <Card title="Records (newest first)">
          <ErrorBox error={records.error} />
          <ul class="records">
            {sorted.map((r) => (
              <li key={r.id}>
                <strong>{r.title ?? r.type ?? 'Record'}</strong> {r.type ? <Badge value={r.type} /> : null}{' '}
                <Time at={r.occurred_at ?? r.created} />
                <p>{r.text}</p>
                {Object.keys(r.data ?? {}).length ? (
                  <dl>
                    {Object.entries(r.data).map(([k, v]) => (
                      <div key={k}>
                        <dt>{k}</dt>
                        <dd>{String(v)}</dd>
                      </div>
                    ))}
                  </dl>
                ) : null}
              </li>
            ))}
          </ul>
          {records.data && sorted.length === 0 ? <p class="muted">No records.</p> : null}
        </Card>
        <div>
          {can.write(session.user.role) ? (
            <Card title="Add a record">
              <AddRecord contact={c} onAdded={records.reload} />
            </Card>
          ) : null}
          <Card title="Conversations">
            <ul>
              {(convs.data?.data ?? []).map((v) => (
                <li key={v.id}>
                  <a href={`/console/inbox/${v.id}`}>
                    {v.channel} · <Time at={v.last_message_at ?? v.created} />
                  </a>{' '}
                  <Badge value={v.status} />
                </li>
              ))}
            </ul>
            {convs.data && convs.data.data.length === 0 ? <p class="muted">No conversations.</p> : null}
          </Card>
          <Card title="Calls">
            <ul>
              {(calls.data ?? []).map((k) => (
                <li key={k.id}>
                  <a href={`/console/calls/${k.id}`}>{k.id}</a> <Badge value={k.status} /> <Time at={k.created} />
                </li>
              ))}
            </ul>
            {calls.data && calls.data.length === 0 ? <p class="muted">No calls.</p> : null}
          </Card>
        </div>
      </div>
    </main>
  );
}
