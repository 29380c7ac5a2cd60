/**
 * Calls (issue 35 item 3): the list with the filters `GET /v1/calls` takes (status, direction, agent, a
 * date range as `created[gte]`/`created[lte]`, a number as `to`/`from`),
 * and a call's page: transcript with tool calls and knowledge inline, analysis, recording, events,
 * webhook deliveries, the Temporal Web UI run; a live call is followed through `GET /v1/calls/{id}/stream`
 * until it ends, with End, Transfer and Say for agents and admins.
 */
import { useRoute } from 'preact-iso';
import { useEffect, useState } from 'preact/hooks';
import { api, qs, type ListPage } from '../api';
import { can, useSession } from '../session';
import type { Agent, Call, Turn } from '../types';
import { ActionButton, Badge, Card, duration, ErrorBox, Json, Time, useLoad } from '../ui';
import { CallLatency } from './call-latency';
import { CallSquadLine, HandoffText, membersOfTurns } from './squads';

/** src/shared/calls.ts TERMINAL_STATUSES (not imported: that module loads Temporal's workflow helpers). */
const TERMINAL_STATUSES = ['completed', 'transferred', 'busy', 'no_answer', 'failed', 'canceled'];
const STATUSES = ['scheduled', 'queued', 'ringing', 'in_progress', ...TERMINAL_STATUSES];
const TERMINAL = new Set(TERMINAL_STATUSES);

export function useAgents() {
  return useLoad(() => api<ListPage<Agent>>('GET', '/v1/agents?limit=100').then((p) => p.data), []);
}

/** Unix seconds of a date input's day (`YYYY-MM-DD`, the browser's time zone): its start, or its last second. */
export function dayBound(day: string, end: boolean): number | undefined {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(day)) return undefined;
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  return Math.floor(new Date(y, m - 1, end ? d + 1 : d).getTime() / 1000) - (end ? 1 : 0);
}

interface CallFilters {
  status: string;
  direction: string;
  agent_id: string;
  /** Date inputs' days, `YYYY-MM-DD`: `created[gte]` from the first's start, `created[lte]` to the last's end. */
  since: string;
  until: string;
  /** An E.164 number: the calls to it and from it. */
  number: string;
}

/**
 * One page of `GET /v1/calls` under the console's filters (issue 35 item 3). A number searches `to` and
 * `from`: with a direction, one query (outbound calls are to the number, inbound ones from it); without,
 * both, merged newest first (ids are time-ordered, so `starting_after` pages both lists alike).
 */
export async function callsPage(f: CallFilters, limit: number, after: string | undefined): Promise<ListPage<Call>> {
  const base = {
    status: f.status,
    direction: f.direction,
    agent_id: f.agent_id,
    'created[gte]': dayBound(f.since, false),
    'created[lte]': dayBound(f.until, true),
    limit,
    starting_after: after,
  };
  const get = (q: Record<string, string | number | undefined>) =>
    api<ListPage<Call>>('GET', `/v1/calls${qs({ ...base, ...q })}`);
  const number = f.number.replace(/[\s()-]/g, '');
  if (!number) return get({});
  if (f.direction) return get({ [f.direction === 'inbound' ? 'from' : 'to']: number });
  const [to, from] = await Promise.all([get({ to: number }), get({ from: number })]);
  const merged = [...to.data, ...from.data].sort((a, b) => (a.id < b.id ? 1 : a.id > b.id ? -1 : 0));
  return {
    ...to,
    data: merged.slice(0, limit),
    has_more: merged.length > limit || to.has_more || from.has_more,
  };
}

export function CallsPage() {
  const agents = useAgents();
  const [filters, setFilters] = useState<CallFilters>({
    status: '',
    direction: '',
    agent_id: '',
    since: '',
    until: '',
    number: '',
  });
  const [number, setNumber] = useState('');
  const [cursor, setCursor] = useState<string[]>([]);
  const after = cursor[cursor.length - 1];
  const { data, error } = useLoad(
    () => callsPage(filters, 25, after),
    [filters.status, filters.direction, filters.agent_id, filters.since, filters.until, filters.number, after],
  );
  const set = (k: keyof CallFilters) => (e: Event) => {
    setCursor([]);
    setFilters({ ...filters, [k]: (e.currentTarget as HTMLSelectElement | HTMLInputElement).value });
  };
  return (
    <main id="main">
      <h1>Calls</h1>
      <form
        class="filters"
        onSubmit={(e) => {
          e.preventDefault();
          setCursor([]);
          setFilters({ ...filters, number: number.trim() });
        }}
        aria-label="Filter calls"
      >
        <label>
          Status
          <select value={filters.status} onChange={set('status')}>
            <option value="">Any</option>
            {STATUSES.map((s) => (
              <option key={s} value={s}>
                {s.replace(/_/g, ' ')}
              </option>
            ))}
          </select>
        </label>
        <label>
          Direction
          <select value={filters.direction} onChange={set('direction')}>
            <option value="">Any</option>
            <option value="inbound">Inbound</option>
            <option value="outbound">Outbound</option>
          </select>
        </label>
        <label>
          Agent
          <select value={filters.agent_id} onChange={set('agent_id')}>
            <option value="">Any</option>
            {(agents.data ?? []).map((a) => (
              <option key={a.id} value={a.id}>
                {a.name}
              </option>
            ))}
          </select>
        </label>
        <label>
          From date
          <input type="date" value={filters.since} onChange={set('since')} />
        </label>
        <label>
          To date
          <input type="date" value={filters.until} onChange={set('until')} />
        </label>
        <label>
          Number
          <input
            type="search"
            name="number"
            placeholder="+14155550123"
            value={number}
            onInput={(e) => setNumber(e.currentTarget.value)}
          />
        </label>
        <button type="submit">Search</button>
      </form>
      <ErrorBox error={error} />
      <div class="table-wrap">
        <table>
          <thead>
            <tr>
              <th scope="col">Call</th>
              <th scope="col">Status</th>
              <th scope="col">Direction</th>
              <th scope="col">To</th>
              <th scope="col">From</th>
              <th scope="col">Created</th>
              <th scope="col">Duration</th>
            </tr>
          </thead>
          <tbody>
            {(data?.data ?? []).map((c) => (
              <tr key={c.id} data-call={c.id}>
                <td>
                  <a href={`/console/calls/${c.id}`}>{c.id}</a>
                </td>
                <td>
                  <Badge value={c.status} />
                </td>
                <td>{c.direction}</td>
                <td>{c.to}</td>
                <td>{c.from ?? '—'}</td>
                <td>
                  <Time at={c.created} />
                </td>
                <td>{duration(c.duration_seconds)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {data && data.data.length === 0 ? <p class="muted">No calls match.</p> : null}
      <div class="pager">
        <button type="button" disabled={cursor.length === 0} onClick={() => setCursor(cursor.slice(0, -1))}>
          Newer
        </button>
        <button
          type="button"
          disabled={!data?.has_more}
          onClick={() => data && setCursor([...cursor, data.data[data.data.length - 1]!.id])}
        >
          Older
        </button>
      </div>
    </main>
  );
}

/** One transcript turn; `member`: a squad call's member speaking then (named on assistant turns). */
function TurnItem({ t, member }: { t: Turn; member?: string }) {
  return (
    <li class={`turn turn-${t.role}`} data-role={t.role} data-member={member}>
      <span class="turn-role">{t.role === 'tool' ? 'tool' : (t.author ?? t.role)}</span>{' '}
      {member && t.role === 'assistant' ? <span class="turn-member">[{member}]</span> : null} <HandoffText t={t} />
      {t.tool ? (
        <span class="tool-call">
          <code>{t.tool.name}</code> <code>{JSON.stringify(t.tool.arguments ?? {})}</code>{' '}
        </span>
      ) : null}
      <span class="turn-text">{t.text}</span>
      {t.interrupted ? <span class="muted"> (interrupted)</span> : null}
      {t.knowledge?.length ? (
        <span class="knowledge"> knowledge: {t.knowledge.map((k) => `${k.document}#${k.chunk}`).join(', ')}</span>
      ) : null}
    </li>
  );
}

interface StreamStatus {
  status: string;
}

/** Follows a live call: turns as they become final, the status until the end. */
function useCallStream(id: string, live: boolean, onTurn: (t: Turn) => void, onStatus: (s: string) => void) {
  useEffect(() => {
    if (!live) return;
    const es = new EventSource(`/v1/calls/${id}/stream`);
    const parse = (e: Event) => JSON.parse((e as MessageEvent<string>).data) as unknown;
    es.addEventListener('turn', (e) => onTurn(parse(e) as Turn));
    es.addEventListener('tool_call', (e) => onTurn(parse(e) as Turn));
    es.addEventListener('status', (e) => onStatus((parse(e) as StreamStatus).status));
    es.addEventListener('end', (e) => {
      onStatus((parse(e) as StreamStatus).status);
      es.close();
    });
    return () => es.close();
  }, [id, live]);
}

/** An event of the call (`GET /v1/events?object_id=`), with its webhook deliveries. */
interface CallEvent {
  id: string;
  type: string;
  created: number;
  webhook_deliveries: {
    id: string;
    webhook_endpoint: string;
    status: string;
    attempts: number;
    last_attempt: { status_code: number | null; error: string | null } | null;
  }[];
}

/**
 * End, Say and Transfer on a live call (`POST /v1/calls/{id}/end|say|transfer`); a refusal (a number
 * that is not E.164, a call that just ended) shows the API's message under the form.
 */
function LiveControls({ call }: { call: Call }) {
  const [say, setSay] = useState('');
  const [to, setTo] = useState('');
  const [sayError, setSayError] = useState<unknown>(null);
  const [transferError, setTransferError] = useState<unknown>(null);
  const submit = (run: () => Promise<void>, setError: (e: unknown) => void) => async (e: Event) => {
    e.preventDefault();
    setError(null);
    try {
      await run();
    } catch (err) {
      setError(err);
    }
  };
  return (
    <div class="live-controls">
      <ActionButton label="End call" kind="danger" run={() => api('POST', `/v1/calls/${call.id}/end`, {})} />
      <form
        onSubmit={submit(async () => {
          await api('POST', `/v1/calls/${call.id}/say`, { text: say });
          setSay('');
        }, setSayError)}
      >
        <label for="say-text">Say</label>
        <input id="say-text" value={say} onInput={(e) => setSay(e.currentTarget.value)} />
        <button type="submit">Say</button>
        <ErrorBox error={sayError} />
      </form>
      <form
        onSubmit={submit(async () => {
          await api('POST', `/v1/calls/${call.id}/transfer`, { to });
        }, setTransferError)}
      >
        <label for="transfer-to">Transfer to</label>
        <input id="transfer-to" placeholder="+14155550100" value={to} onInput={(e) => setTo(e.currentTarget.value)} />
        <button type="submit">Transfer</button>
        <ErrorBox error={transferError} />
      </form>
    </div>
  );
}

/** How often an ended call's page reloads its events, deliveries and analysis (ms), and how many times. */
const ENDED_REFRESH_MS = 3_000;
const ENDED_REFRESHES = 20;

export function CallPage() {
  const id: string = useRoute().params.id!;
  const { session } = useSession();
  const { data: call, error, setData } = useLoad(() => api<Call>('GET', `/v1/calls/${id}`), [id]);
  const [turns, setTurns] = useState<Turn[]>([]);
  const [status, setStatus] = useState<string | null>(null);
  const live = !!call && !TERMINAL.has(call.status);
  const shownStatus = status ?? call?.status;
  const ended = shownStatus ? TERMINAL.has(shownStatus) : false;
  const extra = useLoad(async () => {
    if (!call || !ended) return null;
    const [transcript, events, recording] = await Promise.all([
      api<{ turns: Turn[] }>('GET', `/v1/calls/${id}/transcript`).catch(() => null),
      api<ListPage<CallEvent>>('GET', `/v1/events?object_id=${encodeURIComponent(id)}&limit=100`).catch(() => null),
      api<{ url?: string; status?: string }>('GET', `/v1/calls/${id}/recording`).catch(() => null),
    ]);
    const fresh = await api<Call>('GET', `/v1/calls/${id}`);
    return { transcript, events, recording, fresh };
  }, [id, ended, !!call]);

  // An ended call's events keep coming for a while (`call.ended` may be stored after the status the stream
  // reports; analysis and webhook deliveries follow): reloaded every few seconds for the first minute.
  useEffect(() => {
    if (!ended) return;
    let left = ENDED_REFRESHES;
    const timer = setInterval(() => (left-- > 0 ? extra.reload() : clearInterval(timer)), ENDED_REFRESH_MS);
    return () => clearInterval(timer);
  }, [id, ended]);

  // A live call's turns come from its stream, which starts at its first event (so `call.turns` is not
  // added: every turn would show twice); an ended call's from its transcript.
  useEffect(() => setTurns([]), [call?.id]);
  useCallStream(
    id,
    live,
    (t) => setTurns((cur) => (t.seq != null && cur.some((x) => x.seq === t.seq) ? cur : [...cur, t])),
    (s) => setStatus(s),
  );
  useEffect(() => {
    if (extra.data?.fresh) setData(extra.data.fresh);
  }, [extra.data]);

  if (error)
    return (
      <main id="main">
        <ErrorBox error={error} />
      </main>
    );
  if (!call)
    return (
      <main id="main">
        <p role="status">Loading…</p>
      </main>
    );
  const transcript = extra.data?.transcript?.turns ?? turns;
  const members = membersOfTurns(call, transcript);
  const events = extra.data?.events?.data ?? [];
  return (
    <main id="main" class="call-page">
      <h1>
        Call <span class="mono">{call.id}</span>
      </h1>
      <p class="call-summary">
        <span data-testid="call-status">
          <Badge value={shownStatus ?? call.status} />
        </span>{' '}
        {call.direction} · to {call.to} · from {call.from ?? '—'} · <Time at={call.created} /> ·{' '}
        {duration(call.duration_seconds)} {call.simulated ? <span class="muted">(simulated)</span> : null}
        {call.end_reason ? <span> · ended: {call.end_reason}</span> : null}
      </p>
      <p>
        <a
          href={`${session.temporal_ui_url}/workflows/${encodeURIComponent(call.id)}`}
          target="_blank"
          rel="noreferrer"
        >
          Open the run in the Temporal Web UI
        </a>
        {session.traces_url_template && call.trace_id ? (
          <>
            {' · '}
            <a
              href={session.traces_url_template.replaceAll('{trace_id}', encodeURIComponent(call.trace_id))}
              target="_blank"
              rel="noreferrer"
              data-testid="call-trace-link"
            >
              Open the call's trace
            </a>
          </>
        ) : null}
        {call.contact_id ? (
          <>
            {' · '}
            <a href={`/console/contacts/${call.contact_id}`}>Contact</a>
          </>
        ) : null}
      </p>
      <CallSquadLine call={call} />
      {!ended && can.write(session.user.role) ? <LiveControls call={call} /> : null}
      <div class="grid2">
        <Card title="Transcript">
          <ol class="transcript" aria-live={ended ? undefined : 'polite'}>
            {transcript.map((t, i) => (
              <TurnItem key={t.seq ?? i} t={t} member={members?.[i]} />
            ))}
          </ol>
          {transcript.length === 0 ? <p class="muted">No turns yet.</p> : null}
        </Card>
        <div>
          <CallLatency call={call} turns={transcript} />
          <Card title="Analysis">
            {call.analysis ? <Json value={call.analysis} /> : <p class="muted">No analysis.</p>}
          </Card>
          <Card title="Recording">
            {extra.data?.recording?.url ? (
              <audio controls src={extra.data.recording.url} aria-label="Call recording" />
            ) : (
              <p class="muted">No recording.</p>
            )}
          </Card>
          <Card title="Events">
            <ul class="events">
              {events.map((e) => (
                <li key={e.id}>
                  <code>{e.type}</code> <Time at={e.created} /> <span class="muted mono">{e.id}</span>
                  {e.webhook_deliveries.length > 0 ? (
                    <ul class="deliveries" aria-label={`Webhook deliveries of ${e.type}`}>
                      {e.webhook_deliveries.map((d) => (
                        <li key={d.id}>
                          <span class={`badge ${d.status}`}>{d.status}</span>{' '}
                          <span class="mono">{d.webhook_endpoint}</span>
                          {' · '}
                          {d.attempts} attempt{d.attempts === 1 ? '' : 's'}
                          {d.last_attempt?.status_code ? ` · HTTP ${d.last_attempt.status_code}` : ''}
                          {d.last_attempt?.error ? ` · ${d.last_attempt.error}` : ''}
                        </li>
                      ))}
                    </ul>
                  ) : null}
                </li>
              ))}
            </ul>
            {events.length === 0 ? <p class="muted">No events yet.</p> : null}
          </Card>
        </div>
      </div>
    </main>
  );
}
