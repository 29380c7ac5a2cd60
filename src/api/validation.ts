/**
 * Request validation with zod: every route declares a strict schema; the first problem becomes a 400
 * naming the `param` (dotted path), `parameter_missing` when absent, `parameter_unknown` for fields we do
 * not know, `parameter_invalid` otherwise. Phone numbers are checked with libphonenumber-js.
 */
import type { RequestHandler } from 'express';
import { z } from 'zod';
import { isE164 } from '../phone-numbers';
import { ApiError, invalidParam, missingParam } from '../errors';
import { DAY_NAMES, isTimeZone, secondsOfDay } from '../services/bulk-calls';
import { PERSONA_LIMITS, SIMULATION_OUTCOMES, VOICEMAIL_ACTIONS } from '../shared/calls';

/** Whether a string is an E.164 phone number (src/phone-numbers.ts), for routes that check one by hand. */
export { isE164 };

/** An E.164 number (`+14155550123`): a valid number written exactly in E.164 form. */
export const e164 = z
  .string()
  .refine((v) => isE164(v), { message: 'must be a phone number in E.164 format, like +14155550123' })
  .meta({
    description: 'A valid phone number in E.164 format.',
    pattern: '^\\+[1-9]\\d{1,14}$',
    examples: ['+14155550123'],
  });

/** A local wall-clock time `HH:MM` (or `HH:MM:SS`), `00:00` to `24:00`: calling windows' bounds. */
export const localTime = z
  .string()
  .refine((v) => !Number.isNaN(secondsOfDay(v)), 'must be a local time HH:MM (00:00 to 24:00)');

/** An IANA time zone this runtime's ICU knows (`America/New_York`). */
export const timeZone = z.string().refine(isTimeZone, 'must be an IANA time zone such as America/New_York');

/** Days a window opens: `sun`…`sat`, at least one. */
export const windowDays = z.array(z.enum(DAY_NAMES)).min(1, 'must name at least one day').max(7);

/**
 * A calling window on a call or an agent: local times in the callee's zone (`timezone`, else the
 * number's region), on `days` (default every day); `end` after `start` on the same day.
 */
export const callingWindow = z
  .strictObject({ start: localTime, end: localTime, days: windowDays.optional(), timezone: timeZone.optional() })
  .refine((w) => secondsOfDay(w.end) > secondsOfDay(w.start), {
    message: 'must be after start (same day, local time)',
    path: ['end'],
  })
  .meta({
    description:
      "Local times the call may ring, in the callee's time zone (`timezone`, else the number's region), daylight-saving aware.",
    examples: [{ start: '09:00', end: '17:00', days: ['mon', 'tue', 'wed', 'thu', 'fri'] }],
  });

/** Stripe's metadata rules: ≤ 50 keys, keys ≤ 40 characters, string values ≤ 500 characters. */
export const metadata = z
  .record(
    z.string().min(1, 'keys must not be empty').max(40, 'keys must be at most 40 characters'),
    z.string().max(500, 'values must be strings of at most 500 characters'),
  )
  .refine((m) => Object.keys(m).length <= 50, { message: 'must have at most 50 keys' });

/** Parses `body` with `schema`, or throws the 400 for its first problem. */
export function parseBody<S extends z.ZodType>(schema: S, body: unknown): z.infer<S> {
  const result = schema.safeParse(body);
  if (result.success) return result.data;
  throw toApiError(result.error, body);
}

/** Maps a zod error to our 400 (exported for query-string validation). */
export function toApiError(error: z.ZodError, input: unknown): ApiError {
  const issue = error.issues[0];
  const path = issue.path.map(String);
  if (issue.code === 'unrecognized_keys') {
    const param = [...path, issue.keys[0]].join('.');
    return new ApiError(
      400,
      'invalid_request_error',
      'parameter_unknown',
      `Received unknown parameter: ${param}.`,
      param,
    );
  }
  if (issue.code === 'invalid_key') {
    // A bad key of a record (metadata): name the record, and say what is wrong with the key.
    const param = path.slice(0, -1).join('.');
    return invalidParam(
      param,
      `Invalid ${param}: key '${path[path.length - 1]}' ${issue.issues[0]?.message ?? 'is invalid'}.`,
    );
  }
  const param = path.join('.') || 'body';
  if (valueAt(input, issue.path) === undefined) return missingParam(param);
  let message = issue.message;
  if (issue.code === 'invalid_type') message = `must be ${article(issue.expected)}`;
  return invalidParam(param, `Invalid ${param}: ${message}.`);
}

function article(expected: string): string {
  return /^[aeiou]/.test(expected) ? `an ${expected}` : `a ${expected}`;
}

function valueAt(input: unknown, path: PropertyKey[]): unknown {
  let v: unknown = input;
  for (const p of path) {
    if (v === null || typeof v !== 'object') return undefined;
    v = (v as Record<PropertyKey, unknown>)[p];
  }
  return v;
}

/** The list parameters of every list endpoint (src/api/lists.ts, spec section 7). */
export const LIST_QUERY = ['limit', 'starting_after', 'ending_before'] as const;

/**
 * Declares the query parameters a GET route takes; any other is 400 `parameter_unknown` naming it, as
 * Stripe answers, so a misspelt filter (`?statuss=completed`) is an error, not a silently unfiltered list.
 */
export function acceptsQuery(...allowed: readonly string[]): RequestHandler {
  const known = new Set(allowed);
  return (req, _res, next) => {
    const unknown = Object.keys(req.query as Record<string, unknown>).find((k) => !known.has(k));
    if (unknown === undefined) return next();
    next(
      new ApiError(
        400,
        'invalid_request_error',
        'parameter_unknown',
        allowed.length
          ? `Received unknown query parameter: ${unknown}. This endpoint takes ${allowed.join(', ')}.`
          : `Received unknown query parameter: ${unknown}. This endpoint takes no query parameters.`,
        unknown,
      ),
    );
  };
}

/**
 * The equality filters of a list endpoint from its query string: each of `allowed` that is present, as a
 * string, and one of its values when it has a list (`null`: any string). A value outside the list is a 400
 * naming the parameter, as Stripe answers (`?status=AAA` is an error, not an empty list).
 * @throws ApiError 400 `parameter_invalid` naming the parameter
 */
export function queryFilters(
  query: unknown,
  allowed: Record<string, readonly string[] | null>,
): Record<string, string> {
  const q = query as Record<string, unknown>;
  const filter: Record<string, string> = {};
  for (const [name, values] of Object.entries(allowed)) {
    const v = q[name];
    if (v === undefined) continue;
    if (typeof v !== 'string' || (values && !values.includes(v)))
      throw invalidParam(name, `Invalid ${name}: must be ${values ? `one of ${values.join(', ')}` : 'a string'}.`);
    filter[name] = v;
  }
  return filter;
}

/**
 * Every POST and DELETE of the API takes its parameters in the body: a query parameter there is 400
 * `parameter_unknown` (GET routes declare theirs with `acceptsQuery`).
 */
export const noQueryOnWrites: RequestHandler = (req, res, next) =>
  req.method === 'GET' || req.method === 'HEAD' ? next() : acceptsQuery()(req, res, next);

/**
 * A query parameter of an operation: its schema (the value's type; on the wire every value is a string,
 * which the handler parses) and what it does.
 */
export interface QueryParam {
  name: string;
  description: string;
  schema?: z.ZodType;
  required?: boolean;
  /**
   * A `deepObject` parameter (`created[gte]=…`): the keys it takes; `schema` is then the object of those
   * keys. The query string carries one parameter per key, `name[key]`.
   */
  deepObject?: readonly string[];
}

/**
 * `parseBody` with array positions written as in JavaScript (`contacts[17].phone`, not `contacts.17.phone`)
 * in `param` and the message, so a client can find the bad row of a long list.
 */
export function parseIndexed<S extends z.ZodType>(schema: S, body: unknown, prefix = ''): z.infer<S> {
  try {
    return parseBody(schema, body);
  } catch (err) {
    if (!(err instanceof ApiError) || !err.param) throw err;
    const inner = err.param === 'body' ? '' : err.param.replace(/\.(\d+)(?=\.|$)/g, '[$1]');
    const param = prefix ? (inner ? `${prefix}${inner.startsWith('[') ? '' : '.'}${inner}` : prefix) : inner || 'body';
    throw new ApiError(err.status, err.type, err.code, err.message.split(err.param).join(param), param);
  }
}

/**
 * The `agent_version` query parameter of the lists and reports filtered by version
 * (`GET /v1/calls?agent_version=4`, `GET /v1/usage`): a positive integer, or undefined when absent.
 * @throws ApiError 400 `parameter_invalid` naming `agent_version`
 */
export function agentVersionQuery(query: unknown): number | undefined {
  const v = (query as Record<string, unknown>).agent_version;
  if (v === undefined) return undefined;
  if (typeof v !== 'string' || !/^[1-9]\d{0,8}$/.test(v))
    throw invalidParam('agent_version', 'Invalid agent_version: must be a version number (1, 2, 3…).');
  return Number(v);
}

/** Merges a metadata patch into stored metadata JSON (Stripe: a key set to `""` is removed). @throws ApiError 400 beyond 50 keys */
export function mergedMetadata(currentJson: string | null | undefined, patch: Record<string, string>): string {
  const merged: Record<string, string> = { ...(JSON.parse(currentJson ?? '{}') as Record<string, string>), ...patch };
  for (const [k, v] of Object.entries(merged)) if (v === '') delete merged[k];
  if (Object.keys(merged).length > 50) throw invalidParam('metadata', 'Invalid metadata: must have at most 50 keys.');
  return JSON.stringify(merged);
}

/** Longest message text (Twilio's limit for one message body). */
export const MAX_TEXT = 1600;

/** Longest `voicemail.message` (characters): about a minute of speech. */
export const VOICEMAIL_MESSAGE_MAX = 1000;

/**
 * The `voicemail` setting of an agent, or of one call (`POST /v1/calls`)
 * (src/shared/calls.ts `VoicemailSetting`). `action` defaults to `hang_up`; `message` is required with
 * `leave_message` (400 naming `voicemail.message`), at most `VOICEMAIL_MESSAGE_MAX` characters.
 */
export const voicemailSchema = z
  .strictObject({
    detection: z.boolean().describe("Ask Twilio's answering-machine detection on live outbound calls."),
    action: z
      .enum(VOICEMAIL_ACTIONS)
      .default('hang_up')
      .describe(
        'On a machine: `hang_up` at once, or `leave_message` (spoken once after the beep), then the call ends.',
      ),
    message: z
      .string()
      .trim()
      .min(1, 'must not be empty')
      .max(VOICEMAIL_MESSAGE_MAX, `must be at most ${VOICEMAIL_MESSAGE_MAX} characters`)
      .optional()
      .describe('What `leave_message` says after the beep; required with it.'),
    leave_message_on: z
      .enum(['every_attempt', 'last_attempt'])
      .optional()
      .describe(
        'Campaigns: `last_attempt` leaves the message only on an attempt the campaign would not redial on voicemail; earlier attempts hang up.',
      ),
  })
  .superRefine((v, ctx) => {
    if (v.action === 'leave_message' && v.message === undefined)
      ctx.addIssue({ code: 'custom', path: ['message'], message: 'is required when action is leave_message' });
  });

/** A persona or goal: 1 to 2,000 characters once trimmed. */
const personaText = z
  .string()
  .trim()
  .min(1, 'must not be empty')
  .max(PERSONA_LIMITS.maxChars, `must be at most ${PERSONA_LIMITS.maxChars} characters`);

export const simulationSchema = z
  .strictObject({
    persona: personaText
      .optional()
      .describe(
        'The caller is a model playing this persona (instead of `caller` lines), towards `goal`; it hangs up when the goal is met or impossible, or after `max_turns`.',
      ),
    goal: personaText.optional().describe('What the persona wants from the call (required with `persona`).'),
    max_turns: z
      .number()
      .int()
      .min(1)
      .max(PERSONA_LIMITS.maxTurns)
      .optional()
      .describe(
        `With \`persona\`: the caller turns at most (default ${PERSONA_LIMITS.maxTurnsDefault}), then the persona hangs up.`,
      ),
    caller: z
      .array(z.string().trim().min(1, 'lines must not be empty').max(2000))
      .max(1000, 'must have at most 1000 lines')
      .optional(),
    outcome: z
      .enum(SIMULATION_OUTCOMES)
      .optional()
      .describe(
        '`voicemail`: an answering machine picks up, says `caller` as its greeting and beeps (handled as the `voicemail` setting says).',
      ),
    ring_seconds: z.number().min(0).max(60).optional(),
    pause_seconds: z.number().min(0).max(60).optional(),
    transfer: z
      .strictObject({
        answer: z.enum(['answered', 'no_answer', 'busy']),
        after_seconds: z.number().min(0).max(60).optional(),
      })
      .optional()
      .describe(
        'What the person a warm transfer dials does, after `after_seconds` (default 0): `answered` (hears the summary, is joined: `transferred`), `no_answer` or `busy` (`call.transfer_failed`; the caller is back with the assistant). Absent: answered at once.',
      ),
    barge_ins: z
      .array(
        z.strictObject({
          line: z
            .number()
            .int()
            .min(1)
            .max(999)
            .describe('The index (0-based) of the `caller` line said over the answer before it.'),
          heard: z
            .string()
            .max(2000)
            .optional()
            .describe('What the caller had heard of the answer when they started (default: nothing).'),
        }),
      )
      .max(100)
      .optional()
      .describe(
        'Caller lines said over the assistant (barge-in): a backchannel ("mhmm") interrupts nothing and starts no answer; any other line cuts the answer to `heard` and drops its tool calls not started yet (`end_call` and `transfer_call` too).',
      ),
  })
  .superRefine(checkPersona);

/**
 * The persona fields' rules: `persona` and `caller` lines are exclusive (400 naming
 * `persona`); `persona` and `goal` come together (400 naming the missing one); `max_turns` only with a persona.
 */
function checkPersona(
  s: { persona?: string; goal?: string; max_turns?: number; caller?: string[]; barge_ins?: { line: number }[] },
  ctx: z.RefinementCtx,
): void {
  const issue = (path: string, message: string) => ctx.addIssue({ code: 'custom', path: [path], message });
  if (s.persona !== undefined && s.caller !== undefined)
    issue('persona', 'a persona caller and scripted caller lines are exclusive: give persona or caller, not both');
  else if (s.persona !== undefined && s.goal === undefined) issue('goal', 'is required with persona');
  else if (s.persona === undefined && s.goal !== undefined) issue('persona', 'is required with goal');
  else if (s.persona === undefined && s.max_turns !== undefined) issue('max_turns', 'is only taken with persona');
  else if (s.barge_ins?.some((b) => b.line >= (s.caller?.length ?? 0)))
    issue('barge_ins', 'each line must be an index of caller');
}
