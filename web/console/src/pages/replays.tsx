/**
 * Replays in the console (README "Replays of recorded calls"): an agent's replays, reached from its
 * agent page (`GET /v1/agents/{id}/replays`), and one replay side by side
 * (`GET /v1/agents/{id}/replays/{replay_id}`, read again every 2 s while it runs): its progress and
 * totals, then each call with its summary (turns changed, tool calls added and removed, the transfer,
 * length, tokens and cost; in `fork` mode the forked call, status, end reason, analysis and judge
 * verdicts and the structured data that changed) and its turns as original | replayed. "Changed only" (on by default) hides the unchanged
 * turns and the calls that changed nothing. Everything is rendered as text.
 */
import { useRoute } from 'preact-iso';
import { useEffect, useState } from 'preact/hooks';
import { api, type ListPage } from '../api';
import type { Replay, ReplayCall, ReplayTurn } from '../types';
import { Badge, ErrorBox, Time, useLoad } from '../ui';

/** How often a running replay is read again (ms). */
const RUNNING_REFRESH_MS = 2_000;

/** Micro-dollars as `$0.001596`; null (a model missing from the price table) as `—`. */
export const usdMicros = (m: number | null | undefined) => (m == null ? '—' : `$${(m / 1_000_000).toFixed(6)}`);

/** Calls replayed so far (completed, errored or skipped). */
const doneOf = (r: Replay) => r.progress.completed + r.progress.errored + r.progress.skipped;

/** `/console/agents/:id/replays`: the agent's replays, newest first (up to 100). */
export function ReplaysPage() {
  const id: string = useRoute().params.id!;
  const replays = useLoad(
    () => api<ListPage<Replay>>('GET', `/v1/agents/${id}/replays?limit=100`).then((p) => p.data),
    [id],
  );
  return (
    <main id="main">
      <h1>Replays</h1>
      <p>
        <a href={`/console/agents/${id}`}>← Agent</a> <span class="muted mono">{id}</span>
      </p>
      <ErrorBox error={replays.error} />
      {replays.data && replays.data.length === 0 ? (
        <p class="muted">No replays of this agent yet (POST /v1/agents/{'{id}'}/replays).</p>
      ) : null}
      <div class="table-wrap">
        <table class="replays">
          <thead>
            <tr>
              <th>Replay</th>
              <th>Version</th>
              <th>Mode</th>
              <th>Status</th>
              <th>Progress</th>
              <th>Calls changed</th>
              <th>Turns changed</th>
              <th>Created</th>
            </tr>
          </thead>
          <tbody>
            {(replays.data ?? []).map((r) => (
              <tr key={r.id} data-replay={r.id}>
                <td>
                  <a href={`/console/agents/${id}/replays/${r.id}`} class="mono">
                    {r.id}
                  </a>
                </td>
                <td>v{r.version}</td>
                <td>{r.mode}</td>
                <td>
                  <Badge value={r.status} />
                </td>
                <td>
                  {doneOf(r)} / {r.progress.total}
                </td>
                <td>{r.totals.calls_changed}</td>
                <td>
                  {r.totals.turns_changed} / {r.totals.turns}
                </td>
                <td>
                  <Time at={r.created} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </main>
  );
}

/** The replay's progress: a bar and the count of each state. */
function ReplayProgress({ r }: { r: Replay }) {
  const p = r.progress;
  return (
    <p class="progress" data-testid="replay-progress">
      <progress max={p.total || 1} value={doneOf(r)} aria-label="Calls replayed" /> {doneOf(r)} / {p.total} calls
      replayed{' '}
      <span class="muted">
        ({p.completed} completed, {p.running} running, {p.pending} pending, {p.errored} errored, {p.skipped} skipped)
      </span>
    </p>
  );
}

/** The run's totals: counts, and characters, tokens and cost of the recorded calls beside the replay. */
function ReplayTotals({ r }: { r: Replay }) {
  const t = r.totals;
  const counts: [string, string, number][] = [
    ['calls_changed', 'Calls changed', t.calls_changed],
    ['turns_changed', 'Turns changed', t.turns_changed],
    ['turns', 'Turns', t.turns],
    ['tool_calls_added', 'Tool calls added', t.tool_calls_added],
    ['tool_calls_removed', 'Tool calls removed', t.tool_calls_removed],
    ['transfers_changed', 'Transfers changed', t.transfers_changed],
  ];
  const sides: [string, (s: typeof t.original) => string][] = [
    ['Characters said', (s) => String(s.chars)],
    ['Prompt tokens', (s) => String(s.tokens.prompt)],
    ['Completion tokens', (s) => String(s.tokens.completion)],
    ['Model cost', (s) => usdMicros(s.cost_micros)],
  ];
  return (
    <section class="card" aria-label="Totals" data-testid="replay-totals">
      <h2>Totals</h2>
      <dl class="replay-counts">
        {counts.map(([key, label, value]) => (
          <div key={key}>
            <dt>{label}</dt>
            <dd data-total={key}>{value}</dd>
          </div>
        ))}
      </dl>
      <table class="replay-sides">
        <thead>
          <tr>
            <th />
            <th>Original</th>
            <th>Replayed</th>
          </tr>
        </thead>
        <tbody>
          {sides.map(([label, f]) => (
            <tr key={label} data-total-row={label}>
              <th scope="row">{label}</th>
              <td class="original">{f(t.original)}</td>
              <td class="replayed">{f(t.replayed)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}

/** A pair of values as `a → b` (the same value once). */
const pair = (a: unknown, b: unknown) => (String(a) === String(b) ? String(a) : `${String(a)} → ${String(b)}`);

/** One replayed call's summary in words. */
function CallSummary({ c }: { c: ReplayCall }) {
  const s = c.summary;
  if (!s) return c.error ? <p class="error">{c.error}</p> : null;
  const f = s.fork;
  const judge = (j: { verdict: string; score: number } | null | undefined) => (j ? `${j.verdict} (${j.score})` : '—');
  return (
    <dl class="replay-summary" data-testid="call-summary">
      <div>
        <dt>Turns changed</dt>
        <dd data-summary="turns_changed">
          {s.turns_changed} / {s.turns}
        </dd>
      </div>
      <div>
        <dt>Tool calls</dt>
        <dd data-summary="tool_calls">
          added: {s.tool_calls.added.join(', ') || 'none'} · removed: {s.tool_calls.removed.join(', ') || 'none'}
        </dd>
      </div>
      <div>
        <dt>Transfer</dt>
        <dd data-summary="transfer">{pair(s.transfer.original ? 'yes' : 'no', s.transfer.replayed ? 'yes' : 'no')}</dd>
      </div>
      <div>
        <dt>Length</dt>
        <dd data-summary="length">{pair(s.length.original_chars, s.length.replayed_chars)} characters</dd>
      </div>
      <div>
        <dt>Tokens</dt>
        <dd data-summary="tokens">
          {s.tokens.original.prompt} + {s.tokens.original.completion} → {s.tokens.replayed.prompt} +{' '}
          {s.tokens.replayed.completion}
        </dd>
      </div>
      <div>
        <dt>Cost</dt>
        <dd data-summary="cost">
          {usdMicros(s.cost_micros.original)} → {usdMicros(s.cost_micros.replayed)}
        </dd>
      </div>
      {f ? (
        <>
          <div>
            <dt>Forked call</dt>
            <dd>
              <a href={`/console/calls/${f.call_id}`} class="mono">
                {f.call_id}
              </a>{' '}
              · {pair(f.status.original, f.status.forked)} · end: {pair(f.end_reason.original, f.end_reason.forked)}
            </dd>
          </div>
          <div>
            <dt>Analysis verdict</dt>
            <dd data-summary="verdict">{pair(f.verdict.original ?? '—', f.verdict.forked ?? '—')}</dd>
          </div>
          {f.structured_data ? (
            <div>
              <dt>Structured data</dt>
              <dd data-summary="structured_data">
                {f.structured_data.changed_keys.length
                  ? f.structured_data.changed_keys
                      .map(
                        (k) =>
                          `${k}: ${JSON.stringify(f.structured_data!.original?.[k] ?? null)} → ${JSON.stringify(f.structured_data!.forked?.[k] ?? null)}`,
                      )
                      .join('; ')
                  : f.structured_data.original && f.structured_data.forked
                    ? 'same'
                    : '—'}
              </dd>
            </div>
          ) : null}
          {f.judge ? (
            <div>
              <dt>Judge</dt>
              <dd data-summary="judge">{pair(judge(f.judge.original), judge(f.judge.forked))}</dd>
            </div>
          ) : null}
          <div>
            <dt>Tool results</dt>
            <dd>
              {f.tool_results.recorded} recorded, {f.tool_results.generated} made up
            </dd>
          </div>
        </>
      ) : null}
    </dl>
  );
}

/** One side of a turn: what was said and the tool calls made. */
function Side({ text, tools, cls }: { text: string | null; tools: ReplayTurn['original']['tool_calls']; cls: string }) {
  return (
    <td class={cls}>
      {text ? <div class="said">{text}</div> : <div class="said muted">(nothing said)</div>}
      {tools.length ? (
        <ul class="replay-tools">
          {tools.map((t, i) => (
            <li key={i} class="mono">
              {t.name}({t.arguments})
            </li>
          ))}
        </ul>
      ) : null}
    </td>
  );
}

/** A replayed call: its head, summary and turns (only the changed ones with `changedOnly`). */
function CallSection({ c, changedOnly }: { c: ReplayCall; changedOnly: boolean }) {
  const turns = changedOnly ? c.turns.filter((t) => t.changed) : c.turns;
  const hidden = c.turns.length - turns.length;
  return (
    <section class="card replay-call" aria-label={`Call ${c.call_id}`} data-call={c.call_id} data-changed={c.changed}>
      <header class="card-head">
        <h2>
          <a href={`/console/calls/${c.call_id}`} class="mono">
            {c.call_id}
          </a>
        </h2>
        <span>
          <Badge value={c.status} /> {c.changed ? <Badge value="changed" /> : null}
        </span>
      </header>
      {c.erased ? <p class="muted">Its recording was erased or expired: its turns are no longer shown.</p> : null}
      <CallSummary c={c} />
      {turns.length ? (
        <div class="table-wrap">
          <table class="replay-turns">
            <thead>
              <tr>
                <th>#</th>
                <th>Caller</th>
                <th>Original turn</th>
                <th>Replayed turn</th>
                <th>Verdict</th>
              </tr>
            </thead>
            <tbody>
              {turns.map((t) => (
                <tr key={t.turn} data-turn={t.turn} data-changed={t.changed} class={t.changed ? 'changed' : ''}>
                  <td>{t.turn + 1}</td>
                  <td class="caller">{t.caller ?? <span class="muted">(a tool result)</span>}</td>
                  <Side text={t.original.text} tools={t.original.tool_calls} cls="original" />
                  <Side text={t.replayed.text} tools={t.replayed.tool_calls} cls="replayed" />
                  <td class="verdict">
                    <strong>{t.changed ? 'changed' : 'same'}</strong> <span class="muted">({t.basis})</span>
                    {t.explanation ? <div>{t.explanation}</div> : null}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
      {hidden ? (
        <p class="muted" data-testid="turns-hidden">
          {hidden} unchanged {hidden === 1 ? 'turn' : 'turns'} hidden
        </p>
      ) : null}
    </section>
  );
}

/** `/console/agents/:id/replays/:replay`: one replay side by side, filtered to changes by default. */
export function ReplayPage() {
  const { id, replay: replayId } = useRoute().params as { id: string; replay: string };
  const replay = useLoad(() => api<Replay>('GET', `/v1/agents/${id}/replays/${replayId}`), [id, replayId]);
  const [changedOnly, setChangedOnly] = useState(true);
  const r = replay.data;
  useEffect(() => {
    if (r?.status !== 'running') return;
    const timer = setTimeout(replay.reload, RUNNING_REFRESH_MS);
    return () => clearTimeout(timer);
  }, [r]);
  const calls = r ? (changedOnly ? r.calls.filter((c) => c.changed !== false) : r.calls) : [];
  const hiddenCalls = r ? r.calls.length - calls.length : 0;
  return (
    <main id="main">
      <h1>Replay</h1>
      <p>
        <a href={`/console/agents/${id}/replays`}>← Replays of the agent</a>
      </p>
      <ErrorBox error={replay.error} />
      {r ? (
        <>
          <p class="replay-meta" data-testid="replay-meta">
            <span class="mono">{r.id}</span> · version {r.version} · {r.mode} mode
            {r.from_turn != null ? ` from caller line ${r.from_turn}` : ''} · <Badge value={r.status} /> · created{' '}
            <Time at={r.created} />
          </p>
          <p class="muted" data-testid="replay-rubric">
            Rubric
            {r.rubric_source === 'agent'
              ? ' (the version’s replay rubric)'
              : r.rubric_source
                ? ' (the replay’s)'
                : ''}:{' '}
            {r.rubric ?? (r.mode === 'turn' ? 'the default (a different action or fact)' : 'none (no judge)')}
          </p>
          <ReplayProgress r={r} />
          <ReplayTotals r={r} />
          <label class="toggle">
            <input
              type="checkbox"
              id="changed-only"
              checked={changedOnly}
              onChange={(e) => setChangedOnly(e.currentTarget.checked)}
            />
            Changed only
          </label>
          {hiddenCalls ? (
            <p class="muted" data-testid="calls-hidden">
              {hiddenCalls} unchanged {hiddenCalls === 1 ? 'call' : 'calls'} hidden
            </p>
          ) : null}
          {calls.map((c) => (
            <CallSection key={c.call_id} c={c} changedOnly={changedOnly} />
          ))}
        </>
      ) : null}
    </main>
  );
}
