/**
 * The winston logger shared by the API, the worker and the CLI, writing to stderr.
 *
 * - Format (`LOG_FORMAT`): `json` → one JSON object per line (`timestamp`, `level`, `message`, fields);
 *   `text` → a compact human line `HH:mm:ss.SSS level message {fields}`. Unset: `json` under
 *   `NODE_ENV=production`, `text` otherwise (so `npm start` is readable, containers are parseable).
 * - Context: every line carries the fields of the log context it is written in. The API runs each
 *   request in one (`request_id`, then `call_id` / `conversation_id` / `workflow_id` once the request
 *   knows them: src/api/observe.ts); activity code gets `workflow_id`, `activity`, `attempt` and its
 *   workflow's `call_id` or `conversation_id` from Temporal's activity Context.
 * - Traces: with tracing on (src/platform/tracing.ts), a line written inside a span carries its
 *   `trace_id` and `span_id` (OpenTelemetry's log correlation fields).
 * - Secrets never leave: values that look like API keys (`svc_sk_…`, `svc_rk_…`, `svc_pk_…`), webhook
 *   secrets (`whsec_…`) or `Bearer` credentials, and fields named like credentials (`authorization`,
 *   `secret`, `password`, `token`, `api_key`…) are written as `[redacted]`. Callers still pass ids,
 *   never credentials; this is the net under that rule.
 * - Card numbers and email addresses never leave either: they are written `[card]` and
 *   `[email]` in every line, whatever the organization's redaction setting (src/redaction.ts
 *   `redactCardsAndEmails`).
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { Context as ActivityContext } from '@temporalio/activity';
import { isSpanContextValid, trace } from '@opentelemetry/api';
import winston from 'winston';
import { redactCardsAndEmails } from './redaction';

/** Fields every line written inside a context carries (snake_case, as in the API). */
export type LogFields = Record<string, string | number | boolean | undefined>;

const contextStorage = new AsyncLocalStorage<LogFields>();

/**
 * Runs `fn` with `fields` as its log context. `fields` itself becomes the context object (fields of an
 * enclosing context are copied into it where absent): what `addLogContext` adds later is visible to
 * whoever holds it, e.g. the API's request line.
 */
export function withLogContext<T>(fields: LogFields, fn: () => T): T {
  const parent = contextStorage.getStore();
  if (parent) for (const [k, v] of Object.entries(parent)) if (!(k in fields)) fields[k] = v;
  return contextStorage.run(fields, fn);
}

/** Adds `fields` to the current log context (no-op outside one, e.g. in an activity). */
export function addLogContext(fields: LogFields): void {
  const store = contextStorage.getStore();
  if (store) Object.assign(store, fields);
}

/** The current context's fields: the API's, else those of the activity being run, else none. */
export function currentLogContext(): LogFields {
  const store = contextStorage.getStore();
  if (store) return store;
  let info;
  try {
    info = ActivityContext.current().info;
  } catch {
    return {}; // not in an activity
  }
  const workflowId = info.workflowExecution?.workflowId;
  return {
    ...(workflowId ? { workflow_id: workflowId, ...idFields(workflowId) } : {}),
    activity: info.activityType,
    attempt: info.attempt,
  };
}

/** `call_id` / `conversation_id` when `id` (a workflow or resource id) names a call or a conversation. */
export function idFields(id: string): LogFields {
  if (id.startsWith('call_')) return { call_id: id };
  if (id.startsWith('conv_')) return { conversation_id: id };
  return {};
}

const REDACTED = '[redacted]';
/** Field names whose values are credentials whatever they look like. */
const SECRET_FIELD =
  /^(authorization|proxy-authorization|cookie|set-cookie|password|passwd|secret|.*_secret|secrets_key|token|.*_token|api_?key|x-twilio-signature|svc-signature)$/i;
/** Credentials inside any string. */
const SECRET_VALUE = [
  /\bsvc_(?:sk|rk|pk)_(?:test|live)_[A-Za-z0-9]+/g,
  /\bwhsec_[A-Za-z0-9_-]+/g,
  /\b(Bearer|Basic)\s+[A-Za-z0-9._~+/=-]+/gi,
];

/** `value` with every credential replaced by `[redacted]` (strings, arrays and plain objects, 5 levels). */
export function redact(value: unknown, depth = 0): unknown {
  if (typeof value === 'string') {
    let out = redactCardsAndEmails(value);
    for (const re of SECRET_VALUE)
      out = out.replace(re, (m, scheme?: string) =>
        typeof scheme === 'string' && /^(bearer|basic)$/i.test(scheme) ? `${scheme} ${REDACTED}` : REDACTED,
      );
    return out;
  }
  if (depth >= 5 || value === null || typeof value !== 'object') return value;
  if (value instanceof Error) return redact(value.stack ?? value.message, depth + 1);
  if (Array.isArray(value)) return value.map((v) => redact(v, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) out[k] = SECRET_FIELD.test(k) ? REDACTED : redact(v, depth + 1);
  return out;
}

/** Adds the context's fields (a field the call passes wins) and redacts credentials. */
const contextAndRedaction = winston.format((info) => {
  const fields = currentLogContext();
  for (const [k, v] of Object.entries(fields)) if (info[k] === undefined && v !== undefined) info[k] = v;
  // The active span's trace (tracing on: src/platform/tracing.ts); off, there is never an active span.
  const span = trace.getActiveSpan()?.spanContext();
  if (span && isSpanContextValid(span) && info.trace_id === undefined) {
    info.trace_id = span.traceId;
    info.span_id = span.spanId;
  }
  for (const k of Object.keys(info)) info[k] = SECRET_FIELD.test(k) ? REDACTED : redact(info[k]);
  return info;
});

/** The line format for `LOG_FORMAT` (`json` | `text`; unset: json in production). */
export function logFormat(
  format = process.env.LOG_FORMAT || (process.env.NODE_ENV === 'production' ? 'json' : 'text'),
): winston.Logform.Format {
  if (format === 'json')
    return winston.format.combine(contextAndRedaction(), winston.format.timestamp(), winston.format.json());
  return winston.format.combine(
    contextAndRedaction(),
    winston.format.timestamp({ format: 'HH:mm:ss.SSS' }),
    winston.format.printf(({ timestamp, level, message, ...rest }) => {
      const extra = Object.keys(rest).length ? ' ' + JSON.stringify(rest) : '';
      return `${timestamp} ${level} ${message}${extra}`;
    }),
  );
}

export const logger = winston.createLogger({
  level: process.env.LOG_LEVEL || 'info',
  format: logFormat(),
  transports: [
    new winston.transports.Console({ stderrLevels: ['error', 'warn', 'info', 'http', 'verbose', 'debug', 'silly'] }),
  ],
});
