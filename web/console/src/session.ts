/** The signed-in session, shared by every page through a Preact context. */
import { createContext } from 'preact';
import { useContext } from 'preact/hooks';
import type { ConsoleSession, Role } from './types';

export interface SessionState {
  session: ConsoleSession;
  /** Replaces the session (after a mode switch). */
  update(s: ConsoleSession): void;
  signOut(): Promise<void>;
}

export const SessionContext = createContext<SessionState | null>(null);

/** The current session (pages are only rendered when signed in). */
export function useSession(): SessionState {
  const s = useContext(SessionContext);
  if (!s) throw new Error('no session');
  return s;
}

/** What a role may do (issue 35 item 1): admin everything, agent inbox/calls/contacts, viewer reads. */
export const can = {
  write: (r: Role) => r !== 'viewer',
  admin: (r: Role) => r === 'admin',
};
