/**
 * The API objects the console shows, taken from the OpenAPI document's generated types
 * (sdk/typescript/src/generated/schema.ts, `npm run sdk:generate`; CI's `npm run sdk:check` keeps it equal to
 * what the service documents), so a field the API renames or drops fails the console's type check
 * (`npm run lint`) instead of showing nothing. Only the console's own session is written here: its
 * `/console/api/session` endpoint is not part of the public API's document.
 */
import type { components } from '../../../sdk/typescript/src/generated/schema';

type Schemas = components['schemas'];

export type Role = 'admin' | 'agent' | 'viewer';
export type Mode = 'test' | 'live';

/** `GET /console/api/session` (src/api/console.ts): the signed-in staff user, the mode, the CSRF token. */
export interface ConsoleSession {
  object: 'console_session';
  user: { id: string; object: 'user'; email: string; role: Role; org_id: string };
  org: { id: string; name: string };
  mode: Mode;
  csrf_token: string;
  /** The Temporal Web UI's namespace page (`TEMPORAL_UI_URL`): a run is `<this>/workflows/<workflow id>`. */
  temporal_ui_url: string;
  /** The tracing backend's page of one trace (`TRACES_URL_TEMPLATE`), `{trace_id}` to fill in; null: no link. */
  traces_url_template: string | null;
}

export type Conversation = Schemas['Conversation'];
export type Message = Schemas['Message'];
export type ToolEntry = Schemas['MessageToolCallsItem'];
export type Contact = Schemas['Contact'];
export type ContactRecord = Schemas['Record'];
/**
 * A transcript turn; from a live call's stream (`GET /v1/calls/{id}/stream`, an event stream the document
 * does not type) it also carries its number there, `seq`, which the page uses to drop a turn seen twice.
 */
export type Turn = Schemas['TranscriptTurn'] & { seq?: number };
export type Call = Schemas['Call'];
export type Agent = Schemas['Agent'];
export type Squad = Schemas['Squad'];
export type BulkCall = Schemas['BulkCall'];
export type BulkCallResult = Schemas['BulkCallResult'];
export type Account = Schemas['Account'];
export type Usage = Schemas['Usage'];
/** One period's figures of a usage report (its totals, or one day's). */
export type Measures = Schemas['UsageTotals'];
export type Replay = Schemas['Replay'];
export type ReplayCall = Schemas['ReplayCallsItem'];
export type ReplayTurn = Schemas['ReplayCallsItemTurnsItem'];
