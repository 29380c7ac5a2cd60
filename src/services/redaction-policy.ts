/**
 * Where PII redaction applies: an organization turns it on per mode
 * (`redaction.enabled`, off by default); then every transcript turn, conversation message, analysis and
 * event payload is redacted before it is written (src/redaction.ts does the finding). Card numbers
 * (13–19 digits, a known brand, Luhn-valid) are redacted in all of them whatever the setting: a caller
 * who reads their card aloud, outside `<Pay>`, never has it stored (PCI DSS keeps stored card numbers in
 * scope; card payments go through `collect_payment`, src/services/payments.ts). The live
 * model still reads the raw words: the call's and the conversation's workflows keep their chat history in
 * memory; only what is stored is redacted. Log lines lose card numbers and email addresses whatever the
 * setting (src/logger.ts).
 *
 * The setting is read through `redactionEnabled` (the account's `redaction.enabled`, src/services/privacy.ts),
 * and a call's parties through `callParties`, cached (they never change).
 */
import { Call } from '../models/calls';
import { privacySettings, type Tenant } from './privacy';
import {
  addCounts,
  redactText,
  redactValue,
  redactedAny,
  type RedactionCounts,
  type RedactOptions,
} from '../redaction';

/**
 * Whether `redaction.enabled` is on for the organization in this mode (false for an unknown one): the
 * account's privacy settings (src/services/privacy.ts `privacySettings`, set by `POST /v1/account`,
 * cached per process for `PRIVACY_CACHE_TTL_MS`, so a change applies everywhere within that bound).
 */
export async function redactionEnabled(tenant: Tenant): Promise<boolean> {
  return (await privacySettings(tenant)).redaction.enabled;
}

/** A text to store, and its `redaction_json` (null when nothing was replaced or redaction is off). */
export interface StoredText {
  text: string;
  redaction_json: string | null;
}

/** `counts` as stored (`redaction_json`), or null when nothing was replaced. */
export const redactionJson = (counts: RedactionCounts): string | null =>
  redactedAny(counts) ? JSON.stringify(counts) : null;

/** What is redacted with the organization's redaction off: card numbers only. */
const ALWAYS_REDACTED = ['card'] as const;

/**
 * A redactor for one tenant and its parties: every kind of PII with the tenant's redaction on, card
 * numbers only (`ALWAYS_REDACTED`) with it off. `text` redacts a string, `value` every string of a
 * JSON-like value; `counts` adds up what they replaced. Never null (the type keeps callers' fallbacks
 * for an unknown call, `callRedactor`).
 */
export async function redactorFor(tenant: Tenant, options: RedactOptions = {}): Promise<Redactor | null> {
  return (await redactionEnabled(tenant))
    ? new Redactor(options)
    : new Redactor({ ...options, kinds: ALWAYS_REDACTED });
}

/** Redacts texts with one set of options, summing what it replaced (see `redactorFor`). */
export class Redactor {
  readonly counts: RedactionCounts = {};
  constructor(private readonly options: RedactOptions) {}

  /** `s` redacted (null and undefined pass through). */
  text<S extends string | null | undefined>(s: S): S {
    if (typeof s !== 'string') return s;
    const r = redactText(s, this.options);
    addCounts(this.counts, r.counts);
    return r.text as S;
  }

  /** A JSON string with every string inside it redacted (an unparsable one is redacted as text). */
  json<S extends string | null | undefined>(s: S): S {
    if (typeof s !== 'string') return s;
    let parsed: unknown;
    try {
      parsed = JSON.parse(s);
    } catch {
      return this.text(s);
    }
    return JSON.stringify(this.value(parsed)) as S;
  }

  /** Every string of `v` redacted (src/redaction.ts `redactValue`). */
  value<T>(v: T): T {
    const r = redactValue(v, this.options);
    addCounts(this.counts, r.counts);
    return r.value;
  }

  /** What was replaced so far, as stored (`redaction_json`), or null when nothing was. */
  stored(): string | null {
    return redactionJson(this.counts);
  }

  /** A fresh redactor with the same options (one per stored row, so each counts its own). */
  fresh(): Redactor {
    return new Redactor(this.options);
  }
}

const parties = new Map<string, { tenant: Tenant; keep: string[] }>();
const PARTIES_CACHED = 2_000;

/**
 * A call's organization, mode and parties (`from`, `to`), from its document; cached per process (they
 * never change). Null when the call has no document.
 */
export async function callParties(callId: string): Promise<{ tenant: Tenant; keep: string[] } | null> {
  const cached = parties.get(callId);
  if (cached) return cached;
  const call = await Call.findById(callId, { org_id: 1, livemode: 1, from: 1, to: 1 }).lean();
  if (!call) return null;
  const found = {
    tenant: { orgId: call.org_id, livemode: call.livemode },
    keep: [call.from, call.to].filter((n): n is string => typeof n === 'string'),
  };
  if (parties.size >= PARTIES_CACHED) parties.delete(parties.keys().next().value!);
  parties.set(callId, found);
  return found;
}

/** A call's redactor (its tenant's setting, its parties kept; card numbers at least), or null when the call is unknown. */
export async function callRedactor(callId: string): Promise<Redactor | null> {
  const p = await callParties(callId);
  return p ? redactorFor(p.tenant, { keep: p.keep }) : null;
}

/** The fields of a message row redaction rewrites. */
interface MessageRow {
  org_id: string;
  livemode: boolean;
  from: string;
  to: string;
  text: string;
  template_json?: string | null;
  tool_calls_json?: string | null;
}

/**
 * A message row as it is stored: with its organization's redaction on, `text`, the template's parameters
 * and the tool calls' arguments and results redacted (the conversation's customer and service numbers,
 * `from`/`to`, kept) and `redaction_json` set when anything was replaced; otherwise its card numbers only.
 * Deterministic, so the API's and the workflow's insert-if-absent of one outbound row write the same values.
 */
export async function redactMessageRow<R extends MessageRow>(row: R): Promise<R & { redaction_json?: string | null }> {
  const redactor = await redactorFor({ orgId: row.org_id, livemode: row.livemode }, { keep: [row.from, row.to] });
  if (!redactor) return row;
  return {
    ...row,
    text: redactor.text(row.text),
    template_json: redactor.json(row.template_json),
    tool_calls_json: redactor.json(row.tool_calls_json),
    redaction_json: redactor.stored(),
  };
}

/** The fields of a conversation that say whose it is (its tenant and its two numbers). */
interface ConversationParties {
  org_id: string;
  livemode: boolean;
  customer_number: string;
  service_number: string;
}

/**
 * A text about a conversation as it is stored (its `handoff_reason`: the model's or a person's words on
 * why a person takes over, which may quote the customer): with the organization's redaction on, redacted
 * like its messages (the customer's and the service's numbers kept); otherwise its card numbers only. Null passes.
 */
export async function redactConversationText(conv: ConversationParties, text: string | null): Promise<string | null> {
  if (text === null) return null;
  const redactor = await redactorFor(
    { orgId: conv.org_id, livemode: conv.livemode },
    { keep: [conv.customer_number, conv.service_number] },
  );
  return redactor ? redactor.text(text) : text;
}

/**
 * A campaign contact's form answers (what `fill_form` kept) as stored on its result row: with the
 * organization's redaction on, every answer redacted (the contact's own number kept, as on its call);
 * otherwise their card numbers only.
 */
export async function redactFormValues<V>(tenant: Tenant, values: V, contactPhone: string | null): Promise<V> {
  const redactor = await redactorFor(tenant, { keep: [contactPhone] });
  return redactor ? redactor.value(values) : values;
}
