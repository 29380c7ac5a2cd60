/**
 * A call's latency on its page: for each answer that carries a `latency` record (src/shared/latency.ts),
 * a stacked bar of where the caller's wait went (end of speech, model, tools, orchestration; Chart.js, as
 * the usage page draws), a table of the same figures, and the call's p50/p90 once it has ended.
 */
import { BarController, BarElement, CategoryScale, Chart, Legend, LinearScale, Tooltip } from 'chart.js';
import { useEffect, useRef } from 'preact/hooks';
import type { Call, Turn } from '../types';
import { Card } from '../ui';

Chart.register(BarController, BarElement, CategoryScale, LinearScale, Legend, Tooltip);

/** A turn's `latency` (the API's `TurnLatency`), ms; null: not measured by the call's engine. */
export interface TurnLatencyView {
  end_of_speech_ms: number | null;
  model_first_token_ms: number | null;
  tool_ms: number | null;
  orchestration_ms: number | null;
  first_audio_ms: number | null;
}
type Percentiles = { p50: number | null; p90: number | null };
/** The call's `latency` (the API's `CallLatency`). */
export type CallLatencyView = { turns: number } & Record<keyof TurnLatencyView, Percentiles>;

/** The parts of the wait, stacked in the order the caller lives them. */
const PARTS: { field: keyof TurnLatencyView; label: string; color: string }[] = [
  { field: 'end_of_speech_ms', label: 'End of speech', color: '#94a3b8' },
  { field: 'model_first_token_ms', label: 'Model', color: '#2563eb' },
  { field: 'tool_ms', label: 'Tools', color: '#16a34a' },
  { field: 'orchestration_ms', label: 'Orchestration', color: '#ea580c' },
];

const ms = (v: number | null | undefined) => (typeof v === 'number' ? `${v} ms` : '—');

/** The answers with a latency record, numbered by their place in the transcript. */
function measured(turns: Turn[]): { n: number; latency: TurnLatencyView }[] {
  return turns.flatMap((t, i) => {
    const latency = (t as Turn & { latency?: TurnLatencyView }).latency;
    return latency ? [{ n: i + 1, latency }] : [];
  });
}

export function CallLatency({ call, turns }: { call: Call; turns: Turn[] }) {
  const rows = measured(turns);
  const summary = (call as Call & { latency?: CallLatencyView | null }).latency ?? null;
  const canvas = useRef<HTMLCanvasElement>(null);
  useEffect(() => {
    if (rows.length === 0 || !canvas.current) return;
    const c = new Chart(canvas.current, {
      type: 'bar',
      data: {
        labels: rows.map((r) => `#${r.n}`),
        datasets: PARTS.map((p) => ({
          label: p.label,
          data: rows.map((r) => r.latency[p.field] ?? 0),
          backgroundColor: p.color,
        })),
      },
      options: {
        responsive: true,
        maintainAspectRatio: false,
        animation: false,
        scales: { x: { stacked: true }, y: { stacked: true, title: { display: true, text: 'ms' } } },
      },
    });
    return () => c.destroy();
  }, [turns]);
  return (
    <Card title="Latency">
      {rows.length === 0 ? (
        <p class="muted">No answer measured.</p>
      ) : (
        <>
          <div class="chart-box">
            <canvas ref={canvas} role="img" aria-label="Latency per answer" />
          </div>
          <table class="latency" aria-label="Latency per answer">
            <thead>
              <tr>
                <th>Turn</th>
                <th>First audio</th>
                {PARTS.map((p) => (
                  <th key={p.field}>{p.label}</th>
                ))}
              </tr>
            </thead>
            <tbody>
              {rows.map((r) => (
                <tr key={r.n} data-turn={r.n}>
                  <td>#{r.n}</td>
                  <td data-field="first_audio_ms">{ms(r.latency.first_audio_ms)}</td>
                  {PARTS.map((p) => (
                    <td key={p.field} data-field={p.field}>
                      {ms(r.latency[p.field])}
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </>
      )}
      {summary ? (
        <p class="latency-summary" data-testid="call-latency">
          First audio p50 {ms(summary.first_audio_ms.p50)}, p90 {ms(summary.first_audio_ms.p90)} · orchestration p50{' '}
          {ms(summary.orchestration_ms.p50)}, p90 {ms(summary.orchestration_ms.p90)} · {summary.turns} answers
        </p>
      ) : null}
    </Card>
  );
}
