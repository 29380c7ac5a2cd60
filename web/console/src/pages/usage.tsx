/**
 * Usage: `GET /v1/usage` for a chosen period, charts per day drawn with Chart.js (calls and minutes,
 * messages, tokens, cost by component), the period's totals beside each chart; and the period's cost per
 * agent version (`GET /v1/usage?agent_id=&agent_version=` for the newest versions of the first agents).
 */
import { BarController, BarElement, CategoryScale, Chart, Legend, LinearScale, Tooltip } from 'chart.js';
import { format, startOfMonth, subDays } from 'date-fns';
import { useEffect, useRef, useState } from 'preact/hooks';
import { api, qs } from '../api';
import type { Measures, Usage } from '../types';
import { ErrorBox, useLoad } from '../ui';

Chart.register(BarController, BarElement, CategoryScale, LinearScale, Legend, Tooltip);

const sum = (o: Record<string, number>) => Object.values(o).reduce((a, b) => a + b, 0);
/** Micro-units (millionths of a dollar, as the API gives costs) → dollars. */
const dollars = (micros: number) => micros / 1_000_000;
/** Dollars as the totals show them: `$0.0234` (4 decimals: calls cost fractions of a cent). */
const usd = (v: number) => `$${v.toLocaleString('en-US', { minimumFractionDigits: 4, maximumFractionDigits: 4 })}`;

/** The figures of one chart: its series (label → value of a day's measures). */
const CHARTS: {
  id: string;
  title: string;
  series: { label: string; value: (m: Measures) => number; color: string }[];
  /** How a total is shown (default: a count). */
  format?: (v: number) => string;
  stacked?: boolean;
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
  {
    id: 'cost',
    title: 'Cost (USD)',
    format: usd,
    stacked: true,
    series: [
      { label: 'Telephony', value: (m) => dollars(m.cost.telephony_micros), color: '#2563eb' },
      { label: 'Model', value: (m) => dollars(m.cost.model_micros), color: '#9333ea' },
      { label: 'Recording', value: (m) => dollars(m.cost.recording_micros), color: '#ea580c' },
      { label: 'Platform', value: (m) => dollars(m.cost.platform_micros), color: '#16a34a' },
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
      options: {
        responsive: true,
        maintainAspectRatio: false,
        animation: false,
        ...(chart.stacked ? { scales: { x: { stacked: true }, y: { stacked: true } } } : {}),
      },
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
              <dd data-total={s.label}>
                {(chart.format ?? ((v) => v.toLocaleString('en-US')))(s.value(usage.totals))}
              </dd>
            </div>
          ))}
        </dl>
      </div>
    </section>
  );
}

/** How many agents, and newest versions of each, the cost-per-version chart asks about (one request each). */
const VERSION_AGENTS = 10;
const VERSIONS_PER_AGENT = 3;

/**
 * The period's cost per agent version: one `GET /v1/usage?agent_id=&agent_version=` per version of the
 * newest `VERSION_AGENTS` agents (their `VERSIONS_PER_AGENT` newest versions), as a bar chart of the total.
 */
function CostByVersion({ period, timezone }: { period: { from: string; to: string }; timezone: string }) {
  const canvas = useRef<HTMLCanvasElement>(null);
  const { data, error } = useLoad(async () => {
    const agents = await api<{ data: { id: string; name: string }[] }>(
      'GET',
      `/v1/agents${qs({ limit: VERSION_AGENTS })}`,
    );
    const rows: { label: string; micros: number }[] = [];
    for (const a of agents.data) {
      const versions = await api<{ data: { number: number }[] }>(
        'GET',
        `/v1/agents/${a.id}/versions${qs({ limit: VERSIONS_PER_AGENT })}`,
      );
      for (const v of versions.data) {
        const u = await api<Usage>(
          'GET',
          `/v1/usage${qs({ ...period, timezone, agent_id: a.id, agent_version: v.number })}`,
        );
        rows.push({ label: `${a.name} v${v.number}`, micros: u.totals.cost.total_micros });
      }
    }
    return rows;
  }, [period.from, period.to]);
  useEffect(() => {
    if (!data || !canvas.current) return;
    const c = new Chart(canvas.current, {
      type: 'bar',
      data: {
        labels: data.map((r) => r.label),
        datasets: [{ label: 'Cost (USD)', data: data.map((r) => dollars(r.micros)), backgroundColor: '#0891b2' }],
      },
      options: { responsive: true, maintainAspectRatio: false, animation: false, indexAxis: 'y' },
    });
    return () => c.destroy();
  }, [data]);
  return (
    <section class="card usage-card" aria-label="Cost per agent version" data-chart="cost-by-version">
      <h2>Cost per agent version</h2>
      <ErrorBox error={error} />
      <div class="usage-row">
        <div class="chart-box">
          <canvas ref={canvas} role="img" aria-label="Cost per agent version" />
        </div>
        <dl class="totals" aria-label="Cost per agent version totals">
          {(data ?? []).map((r) => (
            <div key={r.label}>
              <dt>{r.label}</dt>
              <dd data-total={r.label}>{usd(dollars(r.micros))}</dd>
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
          <CostByVersion period={period} timezone={timezone} />
        </>
      ) : null}
    </main>
  );
}
