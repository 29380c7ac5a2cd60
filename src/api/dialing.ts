/**
 * What the API takes of dialing permissions and transfer destinations (src/shared/dialing.ts), validated
 * with zod like every body: `POST /v1/account` `dialing_permissions` and the agents' `transfer_destinations`
 * (`POST /v1/agents`, `POST /v1/agents/{id}`). Their format only; whether the organization may reach a
 * destination is the dial gate's to say (src/services/dial-gate.ts `requireDestination`), asked by the routes.
 */
import { isSupportedCountry } from 'libphonenumber-js/max';
import { z } from 'zod';
import { isE164 } from '../phone-numbers';
import {
  DIALING_PERMISSION_LIMITS,
  SIP_DOMAIN_PATTERN,
  TRANSFER_DESTINATION_LIMITS,
  TRANSFER_DESTINATION_NAME,
  sipHost,
} from '../shared/dialing';

const { maxCountries, maxSipDomains } = DIALING_PERMISSION_LIMITS;

/** `POST /v1/account` `dialing_permissions`: either field optional; `allowed_countries: null` restores the default. */
export const dialingPermissionsSchema = z
  .strictObject({
    allowed_countries: z
      .array(
        z
          .string()
          .regex(/^[A-Z]{2}$/, 'must be an ISO 3166-1 alpha-2 code in capitals, e.g. "US"')
          .refine((c) => isSupportedCountry(c), 'must be a country with a telephone numbering plan'),
      )
      .max(maxCountries, `must list at most ${maxCountries} countries`)
      .transform((codes) => [...new Set(codes)].sort())
      .nullable()
      .optional()
      .describe(
        "The countries (ISO 3166-1 alpha-2) calls and transfers may reach; null: back to the default (the countries of the organization's own numbers, with the operator's default).",
      ),
    sip_domains: z
      .array(
        z
          .string()
          .transform((d) => d.toLowerCase())
          .refine((d) => SIP_DOMAIN_PATTERN.test(d), 'must be a host name such as pbx.example.com'),
      )
      .max(maxSipDomains, `must list at most ${maxSipDomains} domains`)
      .transform((domains) => [...new Set(domains)].sort())
      .optional()
      .describe('The hosts `sip:` destinations may name (exact match); empty: none.'),
  })
  .describe(
    'Where calls and transfers may go (both modes). Premium-rate, shared-cost, personal and non-geographic (satellite) numbers stay refused unless the operator allows them.',
  );

/** A transfer destination's `to`: an E.164 number libphonenumber knows, or a `sip:user@host` URI. */
function isDestinationAddress(to: string): boolean {
  if (to.startsWith('+')) return isE164(to);
  return /^sip:[^\s@]+@[^\s@]+$/i.test(to) && sipHost(to) !== null;
}

const { maxCount, nameMax, descriptionMax, toMax } = TRANSFER_DESTINATION_LIMITS;

/** One entry of `transfer_destinations` as the API takes it. */
export const transferDestinationSchema = z.strictObject({
  name: z
    .string()
    .regex(TRANSFER_DESTINATION_NAME, `must be 1-${nameMax} of a-z, 0-9, _ and -`)
    .describe('What the model names it by (unique within the agent).'),
  to: z
    .string()
    .max(toMax)
    .refine(
      isDestinationAddress,
      'must be an E.164 number (e.g. +14155550199) or a sip: URI (sip:desk@pbx.example.com)',
    )
    .describe("An E.164 number or a `sip:` URI on one of the account's `sip_domains`."),
  description: z
    .string()
    .trim()
    .max(descriptionMax, `must be at most ${descriptionMax} characters`)
    .nullable()
    .optional()
    .describe('When to transfer there (the model reads it).'),
  warm: z
    .boolean()
    .nullable()
    .optional()
    .describe("`true`: warm transfer; `false`: cold; absent or null: the agent's `transfer_mode`."),
});

/** `transfer_destinations`: at most `maxCount` entries with distinct names. */
export const transferDestinationsSchema = z
  .array(transferDestinationSchema)
  .max(maxCount, `must list at most ${maxCount} destinations`)
  .superRefine((list, ctx) => {
    list.forEach((d, i) => {
      if (list.findIndex((o) => o.name === d.name) !== i)
        ctx.addIssue({ code: 'custom', path: [i, 'name'], message: `'${d.name}' is listed twice` });
    });
  })
  .describe(
    "The places the assistant may transfer a caller to: the model's `transfer_call` names one of them, never a number. Each is checked against the account's `dialing_permissions` when saved and again when dialed. Empty (and no `transfer_to`): the assistant cannot transfer.",
  );
