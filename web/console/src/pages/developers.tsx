/**
 * Developers (issue 35 item 5, admin only): API keys (`/console/api/keys`: create, revoke; a new
 * secret is shown once with a copy button), the org's staff users, webhook endpoints with their delivery
 * log and redeliver (`POST /v1/events/{id}/redeliver` with the endpoint).
 */
import { useState } from 'preact/hooks';
import { api, type ListPage } from '../api';
import { can, useSession } from '../session';
import { ActionButton, Badge, Card, ErrorBox, Time, useLoad } from '../ui';

interface ApiKey {
  id: string;
  kind: string;
  livemode: boolean;
  redacted_key: string;
  name?: string | null;
  scopes?: string[];
  created: number;
  /** When it was revoked (unix seconds), or a flag; absent/null/false while active. */
  revoked?: number | boolean | null;
  key?: string;
}

interface User {
  id: string;
  email: string;
  role: string;
  disabled: boolean;
}

interface Endpoint {
  id: string;
  url: string;
  events: string[];
  status: string;
  created: number;
}

interface Delivery {
  id: string;
  event: string;
  event_type: string;
  webhook_endpoint: string;
  trigger: string;
  status: string;
  attempts: number;
  last_attempt?: { status_code?: number | null; at?: number } | null;
  created?: number;
}

function NewSecret({ secret }: { secret: string }) {
  const [copied, setCopied] = useState(false);
  return (
    <div class="secret" role="status">
      <p>
        <strong>Copy this secret now: it is not shown again.</strong>
      </p>
      <code data-testid="new-secret">{secret}</code>{' '}
      <button
        type="button"
        onClick={async () => {
          await navigator.clipboard.writeText(secret);
          setCopied(true);
        }}
      >
        {copied ? 'Copied' : 'Copy'}
      </button>
    </div>
  );
}

function Keys() {
  const keys = useLoad(() => api<ListPage<ApiKey>>('GET', '/console/api/keys'), []);
  const [kind, setKind] = useState('secret');
  const [secret, setSecret] = useState<string | null>(null);
  const [error, setError] = useState<unknown>(null);
  return (
    <Card title="API keys">
      <form
        class="filters"
        onSubmit={async (e) => {
          e.preventDefault();
          setError(null);
          try {
            const k = await api<ApiKey>('POST', '/console/api/keys', { kind });
            setSecret(k.key ?? null);
            keys.reload();
          } catch (err) {
            setError(err);
          }
        }}
      >
        <label>
          Kind
          <select value={kind} onChange={(e) => setKind(e.currentTarget.value)}>
            <option value="secret">Secret</option>
            <option value="restricted">Restricted</option>
            <option value="publishable">Publishable</option>
          </select>
        </label>
        <button type="submit" class="primary">
          Create key
        </button>
      </form>
      <ErrorBox error={error} />
      {secret ? <NewSecret secret={secret} /> : null}
      <ErrorBox error={keys.error} />
      <div class="table-wrap">
        <table>
          <thead>
            <tr>
              <th scope="col">Key</th>
              <th scope="col">Kind</th>
              <th scope="col">Name</th>
              <th scope="col">Created</th>
              <th scope="col">Status</th>
              <th scope="col">Actions</th>
            </tr>
          </thead>
          <tbody>
            {(keys.data?.data ?? []).map((k) => (
              <tr key={k.id}>
                <td class="mono">{k.redacted_key}</td>
                <td>{k.kind}</td>
                <td>{k.name ?? '—'}</td>
                <td>
                  <Time at={k.created} />
                </td>
                <td>{k.revoked ? <Badge value="revoked" /> : <Badge value="active" />}</td>
                <td>
                  {k.revoked ? null : (
                    <ActionButton
                      label="Revoke"
                      kind="danger"
                      run={async () => {
                        await api('POST', `/console/api/keys/${k.id}/revoke`);
                        keys.reload();
                      }}
                    />
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </Card>
  );
}

function Users() {
  const users = useLoad(() => api<ListPage<User>>('GET', '/console/api/users'), []);
  return (
    <Card title="Staff users">
      <ErrorBox error={users.error} />
      <ul>
        {(users.data?.data ?? []).map((u) => (
          <li key={u.id}>
            {u.email} <span class="muted">({u.role})</span> {u.disabled ? <Badge value="disabled" /> : null}
          </li>
        ))}
      </ul>
      <p class="muted">
        Users are created with <code>svcctl users create</code>.
      </p>
    </Card>
  );
}

function Deliveries({ endpoint }: { endpoint: Endpoint }) {
  const list = useLoad(
    () => api<ListPage<Delivery>>('GET', `/v1/webhook-endpoints/${endpoint.id}/deliveries?limit=25`),
    [endpoint.id],
  );
  return (
    <>
      <ErrorBox error={list.error} />
      <div class="table-wrap">
        <table>
          <thead>
            <tr>
              <th scope="col">Event</th>
              <th scope="col">Type</th>
              <th scope="col">Status</th>
              <th scope="col">Attempts</th>
              <th scope="col">Trigger</th>
              <th scope="col">Actions</th>
            </tr>
          </thead>
          <tbody>
            {(list.data?.data ?? []).map((d) => (
              <tr key={d.id}>
                <td class="mono">{d.event}</td>
                <td>{d.event_type}</td>
                <td>
                  <Badge value={d.status} />
                </td>
                <td>{d.attempts}</td>
                <td>{d.trigger}</td>
                <td>
                  <ActionButton
                    label="Redeliver"
                    run={async () => {
                      await api('POST', `/v1/events/${d.event}/redeliver`, { endpoint_id: endpoint.id });
                      list.reload();
                    }}
                  />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {list.data && list.data.data.length === 0 ? <p class="muted">No deliveries yet.</p> : null}
    </>
  );
}

function Webhooks() {
  const eps = useLoad(() => api<ListPage<Endpoint>>('GET', '/v1/webhook-endpoints?limit=50'), []);
  const [open, setOpen] = useState<string | null>(null);
  return (
    <Card title="Webhook endpoints">
      <ErrorBox error={eps.error} />
      <ul class="endpoints">
        {(eps.data?.data ?? []).map((e) => (
          <li key={e.id}>
            <button type="button" aria-expanded={open === e.id} onClick={() => setOpen(open === e.id ? null : e.id)}>
              {e.url}
            </button>{' '}
            <Badge value={e.status} /> <span class="muted">{e.events.join(', ')}</span>
            {open === e.id ? <Deliveries endpoint={e} /> : null}
          </li>
        ))}
      </ul>
      {eps.data && eps.data.data.length === 0 ? <p class="muted">No webhook endpoints.</p> : null}
    </Card>
  );
}

export function DevelopersPage() {
  const { session } = useSession();
  if (!can.admin(session.user.role))
    return (
      <main id="main">
        <h1>Developers</h1>
        <p role="alert">Only admins manage keys and webhooks.</p>
      </main>
    );
  return (
    <main id="main">
      <h1>Developers</h1>
      <p class="muted">
        Keys and webhooks of the <strong>{session.mode}</strong> mode.
      </p>
      <Keys />
      <Webhooks />
      <Users />
    </main>
  );
}
