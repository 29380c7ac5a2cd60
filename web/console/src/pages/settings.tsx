/**
 * Settings: the organization's data-keeping rules in the session's mode, from `GET /v1/account` — how many
 * days each kind of data is kept (`retention`, empty: for ever) and PII redaction before storage
 * (`redaction.enabled`). Admins change them with `POST /v1/account` (the API's own checks: 1–3,650 days, a
 * 400 naming the field otherwise, shown as it is); agents and viewers see them read-only, as the API lets
 * every role read the account and only an admin write it (src/api/account.ts, `account:write`).
 */
import { useEffect, useState } from 'preact/hooks';
import { api } from '../api';
import { can, useSession } from '../session';
import type { Account } from '../types';
import { Card, ErrorBox, useLoad } from '../ui';

/** The kinds of data a retention covers, in the API's order, with the words the page shows. */
const KINDS = [
  { field: 'transcripts_days', label: 'Call transcripts' },
  { field: 'messages_days', label: 'Conversation messages' },
  { field: 'recordings_days', label: 'Call recordings' },
  { field: 'analyses_days', label: 'Analyses' },
  { field: 'events_days', label: 'Events and webhook deliveries' },
] as const;

/** A retention's days in words: `30 days`, or `Kept for ever` for null. */
const keptFor = (days: number | null) => (days === null ? 'Kept for ever' : `${days} day${days === 1 ? '' : 's'}`);

/** The settings as text, for roles that may not change them. */
function ReadOnly({ account }: { account: Account }) {
  return (
    <>
      <dl>
        {KINDS.map((k) => (
          <div key={k.field}>
            <dt>{k.label}</dt>
            <dd data-testid={`retention-${k.field}`}>{keptFor(account.retention[k.field])}</dd>
          </div>
        ))}
        <div>
          <dt>PII redaction</dt>
          <dd data-testid="redaction-enabled">{account.redaction.enabled ? 'On' : 'Off'}</dd>
        </div>
      </dl>
      <p class="muted">Only admins change these settings.</p>
    </>
  );
}

/**
 * The admin's form: one days box per kind (empty keeps for ever) and the redaction switch; saving sends
 * every field, so what is shown is what is stored.
 */
function EditForm({ account, saved }: { account: Account; saved: (a: Account) => void }) {
  const text = (a: Account) =>
    Object.fromEntries(KINDS.map((k) => [k.field, a.retention[k.field] === null ? '' : String(a.retention[k.field])]));
  const [days, setDays] = useState<Record<string, string>>(text(account));
  const [redaction, setRedaction] = useState(account.redaction.enabled);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const [done, setDone] = useState(false);
  useEffect(() => {
    setDays(text(account));
    setRedaction(account.redaction.enabled);
  }, [account]);
  return (
    // noValidate: the API checks the days (and names the field in its 400), not the browser's tooltip.
    <form
      class="stack"
      noValidate
      onSubmit={async (e) => {
        e.preventDefault();
        setBusy(true);
        setError(null);
        setDone(false);
        try {
          // A box that does not hold a whole number is sent as it is read, so the API's 400 names it.
          const retention = Object.fromEntries(
            KINDS.map((k) => {
              const v = days[k.field]!.trim();
              return [k.field, v === '' ? null : Number(v)];
            }),
          );
          const next = await api<Account>('POST', '/v1/account', { retention, redaction: { enabled: redaction } });
          saved(next);
          setDone(true);
        } catch (err) {
          setError(err);
        } finally {
          setBusy(false);
        }
      }}
    >
      {KINDS.map((k) => (
        <label key={k.field} for={`retention-${k.field}`}>
          {k.label} (days; empty keeps for ever)
          <input
            id={`retention-${k.field}`}
            type="number"
            min={1}
            max={3650}
            step={1}
            inputMode="numeric"
            value={days[k.field]}
            onInput={(e) => setDays({ ...days, [k.field]: e.currentTarget.value })}
          />
        </label>
      ))}
      <label for="redaction-enabled">
        <input
          id="redaction-enabled"
          type="checkbox"
          checked={redaction}
          onChange={(e) => setRedaction(e.currentTarget.checked)}
        />{' '}
        Redact card numbers, SSNs, email addresses and other parties' phone numbers before storage
      </label>
      <div>
        <button type="submit" class="primary" disabled={busy}>
          Save settings
        </button>{' '}
        {done ? (
          <span role="status" data-testid="settings-saved">
            Saved.
          </span>
        ) : null}
      </div>
      <ErrorBox error={error} />
    </form>
  );
}

export function SettingsPage() {
  const { session } = useSession();
  const account = useLoad(() => api<Account>('GET', '/v1/account'), []);
  return (
    <main id="main">
      <h1>Settings</h1>
      <p class="muted">
        Data kept by the <strong>{session.mode}</strong> mode: an hourly sweep deletes what is older than its days,
        leaving calls and conversations as skeletons.
      </p>
      <Card title="Retention and redaction">
        <ErrorBox error={account.error} />
        {account.data ? (
          can.admin(session.user.role) ? (
            <EditForm account={account.data} saved={(a) => account.setData(a)} />
          ) : (
            <ReadOnly account={account.data} />
          )
        ) : null}
      </Card>
    </main>
  );
}
