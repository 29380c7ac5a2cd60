/**
 * Squads in the console: the list of the mode's squads (`GET /v1/squads`: members, who answers first,
 * the published version and any traffic split), and what a squad call's page shows of its squad: the
 * squad and version it ran, the member answering now, which member said each assistant line
 * (`membersOfTurns`) and each hand-off entry.
 */
import { api, type ListPage } from '../api';
import type { Call, Squad, Turn } from '../types';
import { ErrorBox, Time, useLoad } from '../ui';

/**
 * The member behind each turn of a squad call, by the transcript's order: the first hand-off's `from`
 * (else the call's member now, when none was made) until a `handoff` entry moves it to its `to`. Null
 * for a call without a squad; an entry per turn otherwise (the member speaking when it was said).
 */
export function membersOfTurns(call: Call, turns: Turn[]): string[] | null {
  if (!call.squad_id) return null;
  let member = turns.find((t) => t.role === 'handoff' && t.handoff)?.handoff?.from ?? call.squad_member ?? '';
  return turns.map((t) => {
    if (t.role === 'handoff' && t.handoff) member = t.handoff.to;
    return member;
  });
}

/** A hand-off entry of a squad call's transcript: from, to, the context policy and the summary given. */
export function HandoffText({ t }: { t: Turn }) {
  if (!t.handoff) return null;
  return (
    <span class="handoff" data-testid="handoff">
      {t.handoff.from} → {t.handoff.to} <span class="muted">(context: {t.handoff.context})</span>
      {t.handoff.summary ? <span class="handoff-summary"> — summary: {t.handoff.summary}</span> : null}
    </span>
  );
}

/** The squad line of a squad call's page: the squad (linked to the list), its version, the member now. */
export function CallSquadLine({ call }: { call: Call }) {
  if (!call.squad_id) return null;
  return (
    <p class="call-squad" data-testid="call-squad">
      Squad <a href={`/console/squads#${call.squad_id}`}>{call.squad_id}</a> · version {call.squad_version ?? '—'} ·
      member now: <strong>{call.squad_member ?? '—'}</strong>
    </p>
  );
}

/** `/console/squads`: the mode's squads, newest first (up to 100). */
export function SquadsPage() {
  const squads = useLoad(() => api<ListPage<Squad>>('GET', '/v1/squads?limit=100').then((p) => p.data), []);
  return (
    <main id="main">
      <h1>Squads</h1>
      <ErrorBox error={squads.error} />
      {squads.data && squads.data.length === 0 ? <p class="muted">No squads.</p> : null}
      <table class="squads">
        <thead>
          <tr>
            <th>Name</th>
            <th>Members (hand-offs)</th>
            <th>Starts with</th>
            <th>Version</th>
            <th>Created</th>
          </tr>
        </thead>
        <tbody>
          {(squads.data ?? []).map((s) => (
            <tr key={s.id} id={s.id} data-squad={s.id}>
              <td>
                {s.name} <span class="muted mono">{s.id}</span>
              </td>
              <td>
                {s.members.map((m) => (
                  <div key={m.name}>
                    <a href={`/console/agents/${m.agent_id}`}>{m.name}</a>
                    {m.version != null ? <span class="muted"> v{m.version}</span> : null}
                    {m.handoffs.length ? <span class="muted"> → {m.handoffs.map((x) => x.to).join(', ')}</span> : null}
                  </div>
                ))}
              </td>
              <td>{s.start}</td>
              <td>
                v{s.version}
                {s.latest_version > s.version ? <span class="muted"> (draft v{s.latest_version})</span> : null}
                {s.traffic_split ? (
                  <span class="muted">
                    {' '}
                    split {s.traffic_split.map((e) => `v${e.version} ${e.weight}%`).join(', ')}
                  </span>
                ) : null}
              </td>
              <td>
                <Time at={s.created} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </main>
  );
}
