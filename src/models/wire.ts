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
/** A calling window as stored on a call or an agent (src/shared/calls.ts `CallingWindow`). */
export const callingWindowObject = z.object({
  start: z.string().describe('Local opening time, `HH:MM`.'),
  end: z.string().describe('Local closing time, `HH:MM` (`24:00` for midnight).'),
  days: z.array(z.string()).optional().describe('Days it opens (`sun`…`sat`); absent: every day.'),
  timezone: z.string().optional().describe("IANA zone; absent: the callee's, from the number's region."),
});

/** The error types of `ApiErrorDetail.type` (src/errors.ts `ErrorType`). */
export const ERROR_TYPES = [
  'invalid_request_error',
  'authentication_error',
  'permission_error',
  'rate_limit_error',
  'idempotency_error',
  'api_error',
] as const;

/**
 * The `error` member of a failed request's answer (the OpenAPI component `ApiErrorDetail`; each
 * operation's `<Operation>ErrorDetail` is this with its own enum of `code`s, src/api/openapi.ts).
 */
export const ErrorDetailObject = apiObject(
  'ApiErrorDetail',
  'What went wrong: `type`, a stable `code`, the `param` at fault when one is, a message for people, and the `request_id` to quote to support.',
  z.object({
    type: z.enum(ERROR_TYPES),
    code: z.string().meta({ examples: ['parameter_missing', 'resource_missing', 'scope_missing'] }),
    message: z.string(),
    param: z
      .string()
      .optional()
      .meta({ examples: ['to', 'contacts[17].phone'] }),
    reason: z.string().optional().describe('`bundle_invalid` only: what is wrong with the bundle.'),
    twilio_code: z
      .number()
      .int()
      .optional()
      .describe('When Twilio refused the request (a number purchase, a caller ID verification): its error code.'),
    twilio_message: z.string().optional().describe("When Twilio refused the request: Twilio's message."),
    request_id: z.string().optional(),
  }),
);

/**
 * The error every failed request answers (`{"error": {…}}`; the OpenAPI component `ApiError`, not
 * `Error`, which would shadow the error class of the languages clients are generated in).
 */
export const ErrorObject = apiObject(
  'ApiError',
  'Every failed request answers this: `{"error": {type, code, message, param?, request_id}}`.',
  z.object({ error: ErrorDetailObject }),
);

/** `{id, object, deleted: true}`, what a DELETE answers. */
export const DeletedObject = apiObject(
  'Deleted',
  'What a DELETE answers: the id, the object type, and `deleted: true`.',
  z.object({ id: z.string(), object: z.string(), deleted: z.literal(true) }),
);

/** The list objects made so far, by their item's component name. */
const LISTS = new Map<string, z.ZodType>();

/**
 * A list object of `item` (`{object: "list", data, has_more, url}`), registered as the component
 * `<Item>List` (`CallList`) the first time it is asked for; `item` is a registered object.
 * @throws Error when `item` is not registered (a list of anonymous objects would have no name)
 */
export function listOf<S extends z.ZodType>(item: S) {
  const id = z.globalRegistry.get(item)?.id;
  if (!id) throw new Error('listOf: the item is not a registered API object');
  const made = LISTS.get(id);
  if (made) return made as ReturnType<typeof makeList<S>>;
  const list = apiObject(`${id}List`, `A page of \`${id}\` objects.`, makeList(item));
  LISTS.set(id, list);
  return list;
}

/** The list object schema of `item`. */
function makeList<S extends z.ZodType>(item: S) {
  return z.object({
    object: z.literal('list'),
    data: z.array(item),
    has_more: z.boolean().describe('True when more objects follow this page.'),
    url: z.string().describe('The path of this list, e.g. `/v1/calls`.'),
  });
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
  .describe("Recording of calls: the audio is kept in the service under the organization's retention.");
