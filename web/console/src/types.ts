/** The API objects the console shows (the fields it reads; README and `GET /v1/openapi.json` have all). */

export type Role = 'admin' | 'agent' | 'viewer';
export type Mode = 'test' | 'live';

export interface ConsoleSession {
  object: 'console_session';
  user: { id: string; object: 'user'; email: string; role: Role; org_id: string };
  org: { id: string; name: string };
  mode: Mode;
  csrf_token: string;
  /** The Temporal Web UI's namespace page (`TEMPORAL_UI_URL`): a run is `<this>/workflows/<workflow id>`. */
  temporal_ui_url: string;
}

export interface Conversation {
  id: string;
  channel: 'whatsapp' | 'sms' | 'web';
  customer_number: string;
  service_number: string;
  agent_id: string | null;
  status: 'open' | 'needs_person';
  handoff_reason: string | null;
  last_message_at: number | null;
  contact_id: string | null;
  created: number;
  taken_by?: string | null;
}

export interface ToolEntry {
  name: string;
  arguments?: unknown;
  result?: unknown;
  [k: string]: unknown;
}

export interface Message {
  id: string;
  conversation_id: string;
  channel: string;
  direction: 'inbound' | 'outbound';
  from: string;
  to: string;
  text: string;
  author: 'customer' | 'assistant' | 'person' | 'api';
  status: string;
  tool_calls?: ToolEntry[];
  created: number;
  user_id?: string | null;
}

export interface Contact {
  id: string;
  phone: string | null;
  name: string | null;
  external_id: string | null;
  do_not_call: boolean;
  created: number;
  updated: number;
}

export interface ContactRecord {
  id: string;
  contact_id: string;
  type: string | null;
  title: string | null;
  text: string;
  data: Record<string, string | number | boolean | null>;
  occurred_at: number | null;
  created: number;
}

export interface Turn {
  role: string;
  text: string;
  author?: string;
  tool?: { name: string; arguments: unknown };
  knowledge?: { document: string; chunk: number }[];
  interrupted?: boolean;
  at: number | null;
  seq?: number;
}

export interface Call {
  id: string;
  status: string;
  direction: 'inbound' | 'outbound';
  to: string;
  from: string | null;
  agent_id: string;
  contact_id: string | null;
  end_reason: string | null;
  created: number;
  answered_at: number | null;
  ended_at: number | null;
  duration_seconds: number | null;
  simulated: boolean;
  bulk_call_id: string | null;
  analysis: unknown;
  recording: unknown;
  turns?: Turn[];
  transferred_to: string | null;
}

export interface Agent {
  id: string;
  name: string;
  instructions: string;
  first_message: string | null;
  tool_ids?: string[];
  enabled_tools?: string[];
  voice?: unknown;
  analysis?: unknown;
  [k: string]: unknown;
}

export interface BulkCall {
  id: string;
  name: string | null;
  status: 'running' | 'paused' | 'completed' | 'canceled';
  agent_id: string;
  counts: {
    total: number;
    pending: number;
    in_progress: number;
    completed: number;
    not_reached: number;
    failed: number;
    skipped: number;
  };
  created: number;
}

export interface BulkCallResult {
  id: string;
  index: number;
  contact: string | { phone: string; name?: string };
  status: string;
  attempts: number;
  call_ids: string[];
  form: Record<string, unknown> | null;
  updated: number | null;
}

export interface Measures {
  calls: { count: number; answered: number; talk_seconds: number; billable_minutes: number };
  messages: {
    outbound: Record<string, number>;
    inbound: Record<string, number>;
  };
  llm: { requests: number; prompt_tokens: number; completion_tokens: number };
  analysis: { requests: number; prompt_tokens: number; completion_tokens: number };
}

export interface Usage {
  from: string;
  to: string;
  timezone: string;
  totals: Measures;
  daily: (Measures & { date: string })[];
}
