/**
 * The staff console (issue 35): sign-in, then a header (org, user, test/live mode, sign out), navigation
 * by role, and the pages. Served by the API at `/console` (dist/console/, built by
 * scripts/build-console.mjs); every request goes to the same origin with the session cookie.
 */
import { render } from 'preact';
import { LocationProvider, Route, Router, useLocation } from 'preact-iso';
import { useEffect, useState } from 'preact/hooks';
import { api, onUnauthorized, setCsrfToken } from './api';
import { AgentsPage } from './pages/agents';
import { ReplayPage, ReplaysPage } from './pages/replays';
import { SquadsPage } from './pages/squads';
import { CallPage, CallsPage } from './pages/calls';
import { CampaignPage, CampaignsPage } from './pages/campaigns';
import { ContactPage, ContactsPage } from './pages/contacts';
import { DevelopersPage } from './pages/developers';
import { InboxPage } from './pages/inbox';
import { SettingsPage } from './pages/settings';
import { SignIn } from './pages/signin';
import { UsagePage } from './pages/usage';
import { can, SessionContext, useSession } from './session';
import type { ConsoleSession, Mode } from './types';
import { ErrorBox } from './ui';
import './style.css';

const BASE = '/console';

/** The navigation entries a role sees. */
function navFor(role: ConsoleSession['user']['role']) {
  const items = [
    { href: `${BASE}/inbox`, label: 'Inbox' },
    { href: `${BASE}/calls`, label: 'Calls' },
    { href: `${BASE}/contacts`, label: 'Contacts' },
    { href: `${BASE}/campaigns`, label: 'Campaigns' },
    { href: `${BASE}/usage`, label: 'Usage' },
    { href: `${BASE}/agents`, label: 'Agents' },
    { href: `${BASE}/squads`, label: 'Squads' },
    { href: `${BASE}/settings`, label: 'Settings' },
  ];
  if (can.admin(role)) items.push({ href: `${BASE}/developers`, label: 'Developers' });
  return items;
}

function Header({ navOpen, setNavOpen }: { navOpen: boolean; setNavOpen: (v: boolean) => void }) {
  const { session, update, signOut } = useSession();
  const [error, setError] = useState<unknown>(null);
  const switchMode = async (mode: Mode) => {
    setError(null);
    try {
      const s = await api<ConsoleSession>('POST', '/console/api/session/mode', { mode });
      update(s);
    } catch (e) {
      setError(e);
    }
  };
  return (
    <header class={`top mode-${session.mode}`}>
      <button
        type="button"
        class="nav-toggle"
        aria-expanded={navOpen}
        aria-controls="nav"
        onClick={() => setNavOpen(!navOpen)}
      >
        Menu
      </button>
      <span class="brand">Console</span>
      <span class="org" data-testid="org-name">
        {session.org.name}
      </span>
      <fieldset class="mode-switch">
        <legend class="sr-only">Data mode</legend>
        {(['test', 'live'] as const).map((m) => (
          <label key={m} class={session.mode === m ? 'on' : ''}>
            <input
              type="radio"
              name="mode"
              value={m}
              checked={session.mode === m}
              onChange={() => void switchMode(m)}
            />
            {m === 'test' ? 'Test data' : 'Live data'}
          </label>
        ))}
      </fieldset>
      <span class="user" data-testid="user-email">
        {session.user.email} <span class="muted">({session.user.role})</span>
      </span>
      <button type="button" onClick={() => void signOut()}>
        Sign out
      </button>
      <ErrorBox error={error} />
    </header>
  );
}

function Nav({ open, close }: { open: boolean; close: () => void }) {
  const { session } = useSession();
  const { path } = useLocation();
  return (
    <nav id="nav" class={open ? 'open' : ''} aria-label="Sections">
      <ul>
        {navFor(session.user.role).map((i) => (
          <li key={i.href}>
            <a href={i.href} aria-current={path.startsWith(i.href) ? 'page' : undefined} onClick={close}>
              {i.label}
            </a>
          </li>
        ))}
      </ul>
    </nav>
  );
}

function Home() {
  const { route } = useLocation();
  useEffect(() => route(`${BASE}/inbox`, true), []);
  return null;
}

function NotFound() {
  return (
    <main id="main">
      <h1>Not found</h1>
      <p>
        <a href={`${BASE}/inbox`}>Go to the inbox</a>
      </p>
    </main>
  );
}

function Shell() {
  const { session } = useSession();
  const [navOpen, setNavOpen] = useState(false);
  return (
    // Keyed by mode: switching test/live remounts every page, so no data of the other mode stays shown.
    <div class="shell" key={session.mode}>
      <a class="skip" href="#main">
        Skip to content
      </a>
      <Header navOpen={navOpen} setNavOpen={setNavOpen} />
      <div class="body">
        <Nav open={navOpen} close={() => setNavOpen(false)} />
        <Router>
          <Route path={`${BASE}`} component={Home} />
          <Route path={`${BASE}/`} component={Home} />
          <Route path={`${BASE}/inbox`} component={InboxPage} />
          <Route path={`${BASE}/inbox/:id`} component={InboxPage} />
          <Route path={`${BASE}/calls`} component={CallsPage} />
          <Route path={`${BASE}/calls/:id`} component={CallPage} />
          <Route path={`${BASE}/contacts`} component={ContactsPage} />
          <Route path={`${BASE}/contacts/:id`} component={ContactPage} />
          <Route path={`${BASE}/campaigns`} component={CampaignsPage} />
          <Route path={`${BASE}/campaigns/:id`} component={CampaignPage} />
          <Route path={`${BASE}/usage`} component={UsagePage} />
          <Route path={`${BASE}/agents`} component={AgentsPage} />
          <Route path={`${BASE}/squads`} component={SquadsPage} />
          <Route path={`${BASE}/agents/:id`} component={AgentsPage} />
          <Route path={`${BASE}/agents/:id/replays`} component={ReplaysPage} />
          <Route path={`${BASE}/agents/:id/replays/:replay`} component={ReplayPage} />
          <Route path={`${BASE}/developers`} component={DevelopersPage} />
          <Route path={`${BASE}/settings`} component={SettingsPage} />
          <Route default component={NotFound} />
        </Router>
      </div>
    </div>
  );
}

function App() {
  const [session, setSession] = useState<ConsoleSession | null | undefined>(undefined);
  const accept = (s: ConsoleSession | null) => {
    setCsrfToken(s?.csrf_token ?? '');
    setSession(s);
  };
  useEffect(() => {
    onUnauthorized(() => accept(null));
    api<ConsoleSession>('GET', '/console/api/session', undefined, { quiet401: true }).then(accept, () => accept(null));
  }, []);
  if (session === undefined)
    return (
      <p class="loading" role="status">
        Loading…
      </p>
    );
  if (session === null) return <SignIn onSignedIn={accept} />;
  const state = {
    session,
    update: accept,
    signOut: async () => {
      try {
        await api('DELETE', '/console/api/session', undefined, { quiet401: true });
      } finally {
        accept(null);
      }
    },
  };
  return (
    <SessionContext.Provider value={state}>
      <LocationProvider scope={BASE}>
        <Shell />
      </LocationProvider>
    </SessionContext.Provider>
  );
}

render(<App />, document.getElementById('app')!);
