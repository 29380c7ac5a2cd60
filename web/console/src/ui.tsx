/**
 * Small shared pieces of the console: times (date-fns), error boxes, loaders, JSON shown as text.
 * Everything renders through Preact's escaping: customer text is never HTML.
 */
import { format, formatDistanceToNowStrict, fromUnixTime } from 'date-fns';
import type { ComponentChildren } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { ApiError } from './api';

/** A unix time as `yyyy-MM-dd HH:mm:ss`, with the relative time as a tooltip. */
export function Time({ at }: { at: number | null | undefined }) {
  if (at == null) return <span class="muted">—</span>;
  const d = fromUnixTime(at);
  return (
    <time dateTime={d.toISOString()} title={formatDistanceToNowStrict(d, { addSuffix: true })}>
      {format(d, 'yyyy-MM-dd HH:mm:ss')}
    </time>
  );
}

/** Seconds as `m:ss`. */
export function duration(s: number | null | undefined): string {
  if (s == null) return '—';
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
}

/** An error's message for people. */
export function messageOf(e: unknown): string {
  return e instanceof ApiError ? e.message : e instanceof Error ? e.message : String(e);
}

/** A live region that shows an error (role=alert). */
export function ErrorBox({ error }: { error: unknown }) {
  if (!error) return null;
  return (
    <p class="error" role="alert">
      {messageOf(error)}
    </p>
  );
}

/** Loads data once per change of `deps`; `reload()` loads again. */
export function useLoad<T>(load: () => Promise<T>, deps: unknown[]) {
  const [data, setData] = useState<T | undefined>(undefined);
  const [error, setError] = useState<unknown>(null);
  const [tick, setTick] = useState(0);
  useEffect(() => {
    let live = true;
    setError(null);
    load().then(
      (d) => live && setData(d),
      (e) => live && setError(e),
    );
    return () => {
      live = false;
    };
  }, [...deps, tick]);
  return { data, error, setData, reload: () => setTick((t) => t + 1) };
}

/** A status as a coloured badge (the colour comes from the class, the word is the status). */
export function Badge({ value }: { value: string }) {
  return <span class={`badge badge-${value.replace(/[^a-z_]/g, '')}`}>{value.replace(/_/g, ' ')}</span>;
}

/** JSON shown as preformatted text. */
export function Json({ value }: { value: unknown }) {
  return <pre class="json">{JSON.stringify(value, null, 2)}</pre>;
}

/** A titled card. */
export function Card({
  title,
  children,
  actions,
}: {
  title: string;
  children: ComponentChildren;
  actions?: ComponentChildren;
}) {
  return (
    <section class="card" aria-label={title}>
      <header class="card-head">
        <h2>{title}</h2>
        {actions}
      </header>
      {children}
    </section>
  );
}

/** A button that runs an async action, disabled while it runs, its error shown beside it. */
export function ActionButton({
  label,
  run,
  kind,
  disabled,
}: {
  label: string;
  run: () => Promise<unknown>;
  kind?: 'primary' | 'danger';
  disabled?: boolean;
}) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  return (
    <span class="action">
      <button
        type="button"
        class={kind ?? ''}
        disabled={busy || disabled}
        onClick={async () => {
          setBusy(true);
          setError(null);
          try {
            await run();
          } catch (e) {
            setError(e);
          } finally {
            setBusy(false);
          }
        }}
      >
        {label}
      </button>
      {error ? (
        <span class="error" role="alert">
          {messageOf(error)}
        </span>
      ) : null}
    </span>
  );
}
