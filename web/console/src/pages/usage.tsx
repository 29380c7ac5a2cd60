/**
 * Usage (issue 35 item 5): `GET /v1/usage` for a chosen period, charts per day drawn with Chart.js (calls
 * and minutes, messages, tokens), the period's totals beside each chart.
 */
import { BarController, BarElement, CategoryScale, Chart, Legend, LinearScale, Tooltip } from 'chart.js';
import { format, startOfMonth, subDays } from 'date-fns';
import { useEffect, useRef, useState } from 'preact/hooks';
import { api, qs } from '../api';
import type { Measures, Usage } from '../types';
import { ErrorBox, useLoad } from '../ui';

Chart.register(BarController, BarElement, CategoryScale, LinearScale, Legend, Tooltip);

const sum = (o: Record<string, number>) => Object.values(o).reduce((a, b) => a + b, 0);

/** The figures of one chart: its series (label → value of a day's measures). */
const CHARTS: {
  id: string;
  title: string;
  series: { label: string; value: (m: Measures) => number; color: string }[];
}[] = [
  {
    id: 'calls',
    title: 'Calls and minutes',
    series: [
      { label: 'Calls', value: (m) => m.calls.count, color: '#2563eb' },
      { label: 'Billable minutes', value: (m) => m.calls.billable_minutes, color: '#16a34a' },
    ],
  },
  {
    id: 'messages',
    title: 'Messages',
    series: [
      { label: 'Inbound', value: (m) => sum(m.messages.inbound), color: '#9333ea' },
      { label: 'Outbound', value: (m) => sum(m.messages.outbound), color: '#ea580c' },
    ],
  },
  {
    id: 'tokens',
    title: 'Model tokens',
    series: [
      { label: 'Prompt tokens', value: (m) => m.llm.prompt_tokens + m.analysis.prompt_tokens, color: '#0891b2' },
      {
        label: 'Completion tokens',
        value: (m) => m.llm.completion_tokens + m.analysis.completion_tokens,
        color: '#be123c',
      },
    ],
  },
];

function UsageChart({ usage, chart }: { usage: Usage; chart: (typeof CHARTS)[number] }) {
  const canvas = useRef<HTMLCanvasElement>(null);
  useEffect(() => {
    const c = new Chart(canvas.current!, {
      type: 'bar',
      data: {
        labels: usage.daily.map((d) => d.date),
        datasets: chart.series.map((s) => ({
          label: s.label,
          data: usage.daily.map((d) => s.value(d)),
          backgroundColor: s.color,
        })),
      },
      options: { responsive: true, maintainAspectRatio: false, animation: false },
    });
    return () => c.destroy();
  }, [usage, chart]);
  return (
    <section class="card usage-card" aria-label={chart.title} data-chart={chart.id}>
      <h2>{chart.title}</h2>
      <div class="usage-row">
        <div class="chart-box">
          <canvas ref={canvas} role="img" aria-label={`${chart.title} per day`} />
        </div>
        <dl class="totals" aria-label={`${chart.title} totals`}>
          {chart.series.map((s) => (
            <div key={s.label}>
              <dt>{s.label}</dt>
              <dd data-total={s.label}>{s.value(usage.totals).toLocaleString('en-US')}</dd>
            </div>
          ))}
        </dl>
      </div>
    </section>
  );
}

export function UsagePage() {
  const today = new Date();
  const [from, setFrom] = useState(format(startOfMonth(today), 'yyyy-MM-dd'));
  const [to, setTo] = useState(format(today, 'yyyy-MM-dd'));
  const [period, setPeriod] = useState({ from, to });
  const timezone = Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
  const { data, error } = useLoad(
    () => api<Usage>('GET', `/v1/usage${qs({ ...period, timezone })}`),
    [period.from, period.to],
  );
  return (
    <main id="main">
      <h1>Usage</h1>
      <form
        class="filters"
        onSubmit={(e) => {
          e.preventDefault();
          setPeriod({ from, to });
        }}
      >
        <label>
          From
          <input type="date" value={from} onInput={(e) => setFrom(e.currentTarget.value)} />
        </label>
        <label>
          To
          <input type="date" value={to} onInput={(e) => setTo(e.currentTarget.value)} />
        </label>
        <button type="submit">Show</button>
        <button
          type="button"
          onClick={() => {
            const p = { from: format(subDays(today, 6), 'yyyy-MM-dd'), to: format(today, 'yyyy-MM-dd') };
            setFrom(p.from);
            setTo(p.to);
            setPeriod(p);
          }}
        >
          Last 7 days
        </button>
      </form>
      <ErrorBox error={error} />
      {data ? (
        <>
          <p class="muted" data-period={`${data.from}/${data.to}/${data.timezone}`}>
            {data.from} to {data.to} ({data.timezone})
          </p>
          {CHARTS.map((c) => (
            <UsageChart key={c.id} usage={data} chart={c} />
          ))}
        </>
      ) : null}
    </main>
  );
}
