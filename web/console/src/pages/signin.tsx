/** Sign-in (issue 35 item 1): email and password; the API's message on a refusal. */
import { useState } from 'preact/hooks';
import { api } from '../api';
import type { ConsoleSession } from '../types';
import { ErrorBox } from '../ui';

export function SignIn({ onSignedIn }: { onSignedIn: (s: ConsoleSession) => void }) {
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const submit = async (e: Event) => {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      onSignedIn(await api<ConsoleSession>('POST', '/console/api/session', { email, password }, { quiet401: true }));
    } catch (err) {
      setError(err);
      setBusy(false);
    }
  };
  return (
    <main id="main" class="signin">
      <form onSubmit={submit} aria-labelledby="signin-title">
        <h1 id="signin-title">Sign in to the console</h1>
        <label for="email">Email</label>
        <input
          id="email"
          name="email"
          type="email"
          autoComplete="username"
          required
          autoFocus
          value={email}
          onInput={(e) => setEmail(e.currentTarget.value)}
        />
        <label for="password">Password</label>
        <input
          id="password"
          name="password"
          type="password"
          autoComplete="current-password"
          required
          value={password}
          onInput={(e) => setPassword(e.currentTarget.value)}
        />
        <ErrorBox error={error} />
        <button type="submit" class="primary" disabled={busy}>
          {busy ? 'Signing in…' : 'Sign in'}
        </button>
      </form>
    </main>
  );
}
