/**
 * The `redaction` entry of a stored turn, message or analysis: how many pieces of
 * personal data of each kind were replaced by their placeholder before the text was written
 * (src/redaction.ts finds them; src/services/redaction-policy.ts applies it when the
 * organization's `redaction.enabled` is on). Stored as `redaction_json` beside the text it counts; shown
 * only when something was replaced.
 */
import { z } from 'zod';
import { apiObject } from './wire';

const count = (what: string) => z.number().int().min(1).optional().describe(`${what} replaced.`);

/** The `redaction` member (the OpenAPI component `Redaction`). */
export const RedactionObject = apiObject(
  'Redaction',
  "What was replaced before the text was stored (the organization's `redaction.enabled`): counts by kind of the `[card]`, `[ssn]`, `[email]` and `[phone]` placeholders. Absent when nothing was.",
  z.object({
    card: count('Card numbers (Luhn-checked, known brand)'),
    ssn: count('US Social Security numbers'),
    email: count('Email addresses'),
    phone: count("Phone numbers other than the parties' own"),
  }),
);
export type RedactionObject = z.output<typeof RedactionObject>;

/** The optional field an object schema spreads in: `redaction`, absent when nothing was replaced. */
export const redactionField = {
  redaction: RedactionObject.optional(),
};

/** `{redaction}` from a stored `redaction_json` (nothing when null, empty or absent). */
export function renderRedaction(json: string | null | undefined): { redaction?: RedactionObject } {
  if (!json) return {};
  const counts = JSON.parse(json) as RedactionObject;
  return Object.keys(counts).length ? { redaction: counts } : {};
}
