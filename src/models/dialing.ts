/**
 * The wire shapes of dialing permissions and transfer destinations (src/shared/dialing.ts): the account's
 * `dialing_permissions` (OpenAPI component `DialingPermissions`) and an agent's `transfer_destinations[]`
 * (`TransferDestination`). Stored on the organization (src/models/orgs.ts `dialing_permissions_json`,
 * `allowed_number_types`) and on the agent (src/models/agents.ts `transfer_destinations_json`).
 */
import { z } from 'zod';
import { HIGH_COST_NUMBER_TYPES, TRANSFER_DESTINATION_LIMITS } from '../shared/dialing';
import { apiObject } from './wire';

/** The account's `dialing_permissions` as `GET /v1/account` shows it. */
export const DialingPermissionsObject = apiObject(
  'DialingPermissions',
  'Where the organization\'s calls and transfers may go (every dial: API calls, campaigns, callbacks, scheduled calls, transfers, warm-transfer legs, inbound overflow). A destination outside them is refused: 400 `destination_not_allowed` from the API, a tool error for the assistant on a call, `end_reason: "destination_not_allowed"` for a call that would dial it.',
  z.object({
    allowed_countries: z
      .array(z.string())
      .nullable()
      .describe(
        "ISO 3166-1 alpha-2 countries whose numbers may be called. Unless set: the countries of the organization's own numbers in this mode with the operator's `DEFAULT_ALLOWED_COUNTRIES`; without numbers, live mode: the operator's `DEFAULT_ALLOWED_COUNTRIES` alone (none unless the operator set it); test mode: null, every country.",
      ),
    allowed_countries_source: z
      .enum(['account', 'phone_numbers', 'operator_default', 'test_mode'])
      .describe(
        "`account`: set with `POST /v1/account`; `phone_numbers`: the countries of your numbers (and the operator default); `operator_default`: no numbers, the operator's `DEFAULT_ALLOWED_COUNTRIES`; `test_mode`: every country (simulated calls cost nothing).",
      ),
    sip_domains: z
      .array(z.string())
      .describe("Hosts `sip:` destinations may name (exact match of the URI's host); empty: no `sip:` destination."),
    allowed_number_types: z
      .array(z.enum(HIGH_COST_NUMBER_TYPES))
      .describe(
        "High-cost number types the operator allows this organization (`svcctl dialing allow-number-types`); every other one of `premium_rate`, `shared_cost`, `personal_number` and `non_geographic` (satellite and international networks: +800, +808, +870, +881, +882, +883, +979) is refused. Types are libphonenumber's.",
      ),
  }),
);
export type DialingPermissionsView = z.output<typeof DialingPermissionsObject>;

/** One of an agent's `transfer_destinations` as the API shows it. */
export const TransferDestinationObject = apiObject(
  'TransferDestination',
  "A place the assistant may transfer a caller to: the model's `transfer_call` names it, never a number.",
  z.object({
    name: z
      .string()
      .describe(
        `What the model names it by: lower-case letters, digits, \`_\` and \`-\`, 1-${TRANSFER_DESTINATION_LIMITS.nameMax}; unique within the agent.`,
      ),
    to: z.string().describe("An E.164 number or a `sip:` URI on one of the account's `sip_domains`."),
    description: z.string().nullable().describe('When to transfer there, as the model is told.'),
    warm: z
      .boolean()
      .nullable()
      .describe("`true`: a warm transfer (briefed first); `false`: cold; null: the agent's `transfer_mode`."),
  }),
);
