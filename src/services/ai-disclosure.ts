/**
 * The AI disclosure: an organization's setting per mode (`ai_disclosure` of the `account` object, on
 * by default; `POST /v1/account` turns it off or on) that makes the first sentence of every call say the
 * caller is speaking with an automated assistant, in the agent's language (src/shared/recording-consent.ts
 * `OPENING_SENTENCES`). Stored on the organization (src/models/orgs.ts `ai_disclosure_live`,
 * `ai_disclosure_test`, null = on); read by every call starter (`aiDisclosureEnabled`, passed to
 * src/services/calls.ts `newCallInput`); checked on every persona test run (`disclosureCheck`).
 *
 * Where the rule comes from: the EU AI Act (Regulation (EU) 2024/1689) art. 50(1) — providers ensure that
 * people are informed they are interacting with an AI system unless it is obvious — and state laws such as
 * California's B.O.T. Act (Bus. & Prof. Code §17941). Not legal advice.
 */
import { Org, type OrgDoc } from '../models/orgs';
import { CallTurn } from '../models/calls';
import type { Tenant } from './privacy';

/** The organization's field that holds a mode's setting. */
export const aiDisclosureField = (livemode: boolean) => (livemode ? 'ai_disclosure_live' : 'ai_disclosure_test');

/** A mode's setting on an organization document: on unless set to false. */
export function aiDisclosureOf(org: Partial<OrgDoc> | null | undefined, livemode: boolean): boolean {
  return org?.[aiDisclosureField(livemode)] !== false;
}

/**
 * Whether the tenant's calls open with the AI disclosure: one `_id` read of the organization (an unknown
 * organization: on, the default).
 * @throws what the store throws
 */
export async function aiDisclosureEnabled(tenant: Tenant): Promise<boolean> {
  const org = await Org.findById(tenant.orgId, { [aiDisclosureField(tenant.livemode)]: 1 }).lean();
  return aiDisclosureOf(org, tenant.livemode);
}

/**
 * Sets the tenant's setting (one `$set` of its path).
 * @throws Error for an unknown organization
 */
export async function setAiDisclosure(tenant: Tenant, enabled: boolean): Promise<void> {
  const { matchedCount } = await Org.updateOne(
    { _id: tenant.orgId },
    { $set: { [aiDisclosureField(tenant.livemode)]: enabled } },
  );
  if (matchedCount === 0) throw new Error(`No such organization: ${tenant.orgId}`);
}

/** A built-in check of a persona test's call, beside the judge's verdict. */
export interface BuiltInCheck {
  name: 'ai_disclosure';
  passed: boolean;
  /** What was found (the first assistant turn, cut), or why it failed. */
  detail: string;
  /** The first assistant turn (cut to 200 characters); empty when the assistant said nothing. */
  said: string;
}

/**
 * The AI-disclosure check of a scenario's call: when the call was made with the disclosure on (its
 * `ai_disclosure` sentence stored on the call), the transcript's first assistant turn must begin with that
 * sentence. Null when the disclosure was off for the call (nothing to check).
 * @param disclosure the call's `ai_disclosure` (the sentence, or null)
 */
export async function disclosureCheck(callId: string, disclosure: string | null): Promise<BuiltInCheck | null> {
  if (!disclosure) return null;
  const [first] = await CallTurn.find({ call_id: callId, role: 'assistant' }).sort({ seq: 1 }).limit(1).lean();
  const said = first?.text ?? '';
  const passed = said.trim().startsWith(disclosure);
  return {
    name: 'ai_disclosure',
    passed,
    said: said.slice(0, 200),
    detail: passed
      ? `The first assistant turn begins with the disclosure: "${disclosure}"`
      : `The first assistant turn does not begin with the disclosure "${disclosure}"; it was: "${said.slice(0, 200)}"`,
  };
}
