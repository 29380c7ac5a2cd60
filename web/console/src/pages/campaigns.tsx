/**
 * Campaigns (issue 35 item 5, `/v1/bulk-calls`): the list with progress bars, a campaign's results with
 * a status filter and CSV download (`Accept: text/csv` on the results route), pause/resume/cancel.
 */
import { useRoute } from 'preact-iso';
import { useEffect, useState } from 'preact/hooks';
import { api, qs, type ListPage } from '../api';
import { can, useSession } from '../session';
import type { BulkCall, BulkCallResult } from '../types';
import { ActionButton, Badge, ErrorBox, Time, useLoad } from '../ui';

const RESULT_STATUSES = [
  'pending',
  'in_progress',
  'completed',
  'busy',
  'no_answer',
  'voicemail',
  'failed',
  'window_expired',
  'do_not_call',
  'canceled',
];

/** Done = every contact no longer pending or in progress. */
function done(b: BulkCall): number {
  return b.counts.total - b.counts.pending - b.counts.in_progress;
}

function Progress({ b }: { b: BulkCall }) {
  return (
    <span class="progress">
      <progress max={b.counts.total || 1} value={done(b)} aria-label={`Progress of ${b.name ?? b.id}`} /> {done(b)} /{' '}
      {b.counts.total}
    </span>
  );
}

function Controls({ b, onChange }: { b: BulkCall; onChange: (b: BulkCall) => void }) {
  const { session } = useSession();
  if (!can.write(session.user.role) || b.status === 'completed' || b.status === 'canceled') return null;
  const act = (a: string) => async () => onChange(await api<BulkCall>('POST', `/v1/bulk-calls/${b.id}/${a}`));
  return (
    <span class="controls">
      {b.status === 'running' ? <ActionButton label="Pause" run={act('pause')} /> : null}
      {b.status === 'paused' ? <ActionButton label="Resume" run={act('resume')} /> : null}
      <ActionButton label="Cancel" kind="danger" run={act('cancel')} />
    </span>
  );
}

/** Calls `tick` every `ms` while mounted (progress of running campaigns). */
function useEvery(ms: number, tick: () => void) {
  useEffect(() => {
    const timer = setInterval(tick, ms);
    return () => clearInterval(timer);
  }, [ms]);
}

export function CampaignsPage() {
  const { data, error, setData, reload } = useLoad(() => api<ListPage<BulkCall>>('GET', '/v1/bulk-calls?limit=50'), []);
  useEvery(5000, reload);
  const replace = (b: BulkCall) => data && setData({ ...data, data: data.data.map((x) => (x.id === b.id ? b : x)) });
  return (
    <main id="main">
      <h1>Campaigns</h1>
      <ErrorBox error={error} />
      <div class="table-wrap">
        <table>
          <thead>
            <tr>
              <th scope="col">Campaign</th>
              <th scope="col">Status</th>
              <th scope="col">Progress</th>
              <th scope="col">Created</th>
              <th scope="col">Actions</th>
            </tr>
          </thead>
          <tbody>
            {(data?.data ?? []).map((b) => (
              <tr key={b.id} data-campaign={b.id}>
                <td>
                  <a href={`/console/campaigns/${b.id}`}>{b.name ?? b.id}</a>
                </td>
                <td data-testid="campaign-status">
                  <Badge value={b.status} />
                </td>
                <td>
                  <Progress b={b} />
                </td>
                <td>
                  <Time at={b.created} />
                </td>
                <td>
                  <Controls b={b} onChange={replace} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {data && data.data.length === 0 ? <p class="muted">No campaigns.</p> : null}
    </main>
  );
}

function contactText(c: BulkCallResult['contact']): string {
  return typeof c === 'string' ? c : `${c.name ? `${c.name} ` : ''}${c.phone}`;
}

export function CampaignPage() {
  const id: string = useRoute().params.id!;
  const [status, setStatus] = useState('');
  const [cursor, setCursor] = useState<string[]>([]);
  const after = cursor[cursor.length - 1];
  const campaign = useLoad(() => api<BulkCall>('GET', `/v1/bulk-calls/${id}`), [id]);
  const results = useLoad(
    () =>
      api<ListPage<BulkCallResult>>(
        'GET',
        `/v1/bulk-calls/${id}/results${qs({ status, limit: 50, starting_after: after })}`,
      ),
    [id, status, after],
  );
  useEvery(5000, () => {
    campaign.reload();
    results.reload();
  });
  const [csvError, setCsvError] = useState<unknown>(null);
  const download = async () => {
    setCsvError(null);
    try {
      const csv = await api<string>('GET', `/v1/bulk-calls/${id}/results${qs({ status })}`, undefined, {
        accept: 'text/csv',
      });
      const url = URL.createObjectURL(new Blob([csv], { type: 'text/csv' }));
      const a = document.createElement('a');
      a.href = url;
      a.download = `${id}${status ? `-${status}` : ''}.csv`;
      a.click();
      setTimeout(() => URL.revokeObjectURL(url), 1000);
    } catch (e) {
      setCsvError(e);
    }
  };
  const b = campaign.data;
  return (
    <main id="main">
      <h1>{b?.name ?? id}</h1>
      <ErrorBox error={campaign.error} />
      {b ? (
        <p>
          <span data-testid="campaign-status">
            <Badge value={b.status} />
          </span>{' '}
          <Progress b={b} /> <Controls b={b} onChange={campaign.setData} />
          <br />
          <span class="muted">
            completed {b.counts.completed} · not reached {b.counts.not_reached} · failed {b.counts.failed} · skipped{' '}
            {b.counts.skipped} · in progress {b.counts.in_progress} · pending {b.counts.pending}
          </span>
        </p>
      ) : null}
      <form class="filters" onSubmit={(e) => e.preventDefault()}>
        <label>
          Result status
          <select
            value={status}
            onChange={(e) => {
              setCursor([]);
              setStatus(e.currentTarget.value);
            }}
          >
            <option value="">Any</option>
            {RESULT_STATUSES.map((s) => (
              <option key={s} value={s}>
                {s.replace(/_/g, ' ')}
              </option>
            ))}
          </select>
        </label>
        <button type="button" onClick={() => void download()}>
          Download CSV
        </button>
        <ErrorBox error={csvError} />
      </form>
      <ErrorBox error={results.error} />
      <div class="table-wrap">
        <table>
          <thead>
            <tr>
              <th scope="col">#</th>
              <th scope="col">Contact</th>
              <th scope="col">Status</th>
              <th scope="col">Attempts</th>
              <th scope="col">Calls</th>
              <th scope="col">Form</th>
              <th scope="col">Updated</th>
            </tr>
          </thead>
          <tbody>
            {(results.data?.data ?? []).map((r) => (
              <tr key={r.id}>
                <td>{r.index}</td>
                <td>{contactText(r.contact)}</td>
                <td>
                  <Badge value={r.status} />
                </td>
                <td>{r.attempts}</td>
                <td>
                  {r.call_ids.map((c) => (
                    <a key={c} href={`/console/calls/${c}`} class="mono">
                      {c}{' '}
                    </a>
                  ))}
                </td>
                <td>{r.form ? JSON.stringify(r.form) : '—'}</td>
                <td>
                  <Time at={r.updated} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <div class="pager">
        <button type="button" disabled={cursor.length === 0} onClick={() => setCursor(cursor.slice(0, -1))}>
          Previous
        </button>
        <button
          type="button"
          disabled={!results.data?.has_more}
          onClick={() => results.data && setCursor([...cursor, results.data.data[results.data.data.length - 1]!.id])}
        >
          Next
        </button>
      </div>
    </main>
  );
}
