/**
 * What every response object shares on the wire (spec section 7, DESIGN.md section 6): the helper that
 * registers an object's zod schema as an OpenAPI component, the field schemas objects reuse (unix
 * seconds, metadata, form values), the error object, the DELETE answer and the list object. Each domain's
 * object schema lives beside its renderer in src/models/<domain>.ts and types it: the renderer returns
 * `z.output` of the schema, so a field renamed in one and not the other is a compile error. The OpenAPI
 * generator (src/api/openapi.ts) reads `API_OBJECTS`; the schemathesis run in CI checks every answer.
 */
import { z } from 'zod';

/** Every registered object, by the component name the document gives it. */
export const API_OBJECTS: Record<string, z.ZodType> = {};

/**
 * Registers `schema` as the OpenAPI component `id` (zod's global registry, which `z.toJSONSchema` reads
 * for `$ref`s) with its description, and answers it.
 * @throws Error when `id` is registered twice
 */
export function apiObject<S extends z.ZodType>(id: string, description: string, schema: S): S {
  if (id in API_OBJECTS) throw new Error(`API object ${id} is registered twice`);
  const registered = schema.meta({ id, description });
  API_OBJECTS[id] = registered;
  return registered;
}

/** Unix time in seconds (every `created`, `…_at`). */
export const unix = z.number().int().describe('Unix time in seconds.');
/** `metadata`: the caller's string key-value pairs (at most 50 keys). */
export const metadataObject = z.record(z.string(), z.string()).describe('Your key-value pairs (at most 50 keys).');
/** A filled form's values (src/shared/forms.ts). */
export const formValuesObject = z.record(z.string(), z.union([z.string(), z.number(), z.boolean()]));
/** A calling window as stored on a call or an agent (issue 29; src/shared/calls.ts `CallingWindow`). */
export const callingWindowObject = z.object({
  start: z.string().describe('Local opening time, `HH:MM`.'),
  end: z.string().describe('Local closing time, `HH:MM` (`24:00` for midnight).'),
  days: z.array(z.string()).optional().describe('Days it opens (`sun`…`sat`); absent: every day.'),
  timezone: z.string().optional().describe("IANA zone; absent: the callee's, from the number's region."),
});

/** The error every failed request answers (`{"error": {…}}`, spec section 7). */
export const ErrorObject = apiObject(
  'Error',
  'Every failed request answers this (spec section 7): `type`, a stable `code`, the `param` at fault when one is, a message for people, and the `request_id` to quote to support.',
  z.object({
    error: z.object({
      type: z.enum([
        'invalid_request_error',
        'authentication_error',
        'permission_error',
        'rate_limit_error',
        'idempotency_error',
        'api_error',
      ]),
      code: z.string().meta({ examples: ['parameter_missing', 'resource_missing', 'scope_missing'] }),
      message: z.string(),
      param: z
        .string()
        .optional()
        .meta({ examples: ['to', 'contacts[17].phone'] }),
      reason: z.string().optional().describe('`bundle_invalid` only: what is wrong with the bundle.'),
      request_id: z.string().optional(),
    }),
  }),
);

/** `{id, object, deleted: true}`, what a DELETE answers. */
export const DeletedObject = apiObject(
  'Deleted',
  'What a DELETE answers: the id, the object type, and `deleted: true`.',
  z.object({ id: z.string(), object: z.string(), deleted: z.literal(true) }),
);

/** A list object of `item` (spec section 7: `{object: "list", data, has_more, url}`). */
export function listOf(item: z.ZodType) {
  return z.object({ object: z.literal('list'), data: z.array(item), has_more: z.boolean(), url: z.string() });
}

/** The recording settings an agent or a call takes and shows (`recording`). */
export const recordingSettingsObject = z
  .strictObject({
    enabled: z.boolean().describe('Record the call: both parties, two channels (caller left, assistant right).'),
    notice: z
      .string()
      .trim()
      .min(1)
      .max(500)
      .optional()
      .describe('Said before the greeting (`first_message`) and kept in the transcript, e.g. "This call is recorded."'),
  })
  .describe("Recording of calls (issue 30): the audio is kept in the service under the organization's retention.");
