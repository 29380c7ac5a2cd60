/**
 * The one error shape of the API (DESIGN.md section 5, Stripe's):
 * `{"error":{"type","code","message","param?","request_id"}}`.
 *
 * Route code throws `ApiError`; the error middleware (src/api/middleware.ts) renders it. Anything else
 * thrown becomes a 500 `api_error` with no stack trace sent to the client.
 */

export type ErrorType =
  | 'invalid_request_error'
  | 'authentication_error'
  | 'permission_error'
  | 'idempotency_error'
  | 'rate_limit_error'
  | 'api_error';

/** An error the API answers with: HTTP status, Stripe-style `type`, stable `code`, message, `param`. */
export class ApiError extends Error {
  constructor(
    /** HTTP status, e.g. 400. */
    public readonly status: number,
    public readonly type: ErrorType,
    /** Stable snake_case code, e.g. `parameter_invalid`. */
    public readonly code: string,
    message: string,
    /** The request parameter at fault, dotted for nested fields (`simulation.outcome`). */
    public readonly param?: string,
    /** Response headers that come with the error (`Retry-After` of a 429). */
    public readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = 'ApiError';
  }

  /**
   * A 429 or a 503 says "not now": like Stripe, it is not kept as an Idempotency-Key's result, so a retry
   * with the same key after `Retry-After` runs again.
   */
  get retryable(): boolean {
    return this.status === 429 || this.status === 503;
  }

  /** The `error` member of the response body (without `request_id`, added by the middleware). */
  toBody(): { type: ErrorType; code: string; message: string; param?: string } {
    return { type: this.type, code: this.code, message: this.message, ...(this.param ? { param: this.param } : {}) };
  }
}

/**
 * An `ApiError` caused by Twilio refusing a request (buying a number, verifying a caller ID): its body
 * carries Twilio's error code (`twilio_code`, https://www.twilio.com/docs/api/errors) and message
 * (`twilio_message`) beside the service's own `code`.
 */
export class TwilioRefusedError extends ApiError {
  constructor(
    status: number,
    code: string,
    message: string,
    param: string,
    public readonly twilioCode: number | null,
    public readonly twilioMessage: string | null,
  ) {
    super(status, 'invalid_request_error', code, message, param);
  }

  override toBody() {
    return {
      ...super.toBody(),
      ...(this.twilioCode !== null ? { twilio_code: this.twilioCode } : {}),
      ...(this.twilioMessage !== null ? { twilio_message: this.twilioMessage } : {}),
    };
  }
}

/** 400 `parameter_invalid` naming `param`. */
export const invalidParam = (param: string, message: string) =>
  new ApiError(400, 'invalid_request_error', 'parameter_invalid', message, param);

/** 400 `parameter_missing` naming `param`. */
export const missingParam = (param: string, message = `Missing required param: ${param}.`) =>
  new ApiError(400, 'invalid_request_error', 'parameter_missing', message, param);

/** 404 `resource_missing`, e.g. `notFound('call', id, 'id')`. */
export const notFound = (what: string, id: string, param?: string) =>
  new ApiError(404, 'invalid_request_error', 'resource_missing', `No such ${what}: '${id}'.`, param);

/**
 * How long the API waits for one of its dependencies (Temporal, the store) before it gives up on it, ms:
 * the store's server selection and command buffering, and each Temporal request that does not wait on a
 * workflow (src/platform/temporal.ts). Short enough that a request answers 503 within 5 s.
 */
export const DEPENDENCY_DEADLINE_MS = 3_000;

/** The `Retry-After` of a 503 `service_unavailable`, s: about how long a restarting dependency takes. */
export const UNAVAILABLE_RETRY_AFTER_S = 5;

/** A dependency the API cannot answer without. */
export type Dependency = 'temporal' | 'store';

const DEPENDENCY_NAMES: Record<Dependency, string> = {
  temporal: 'Temporal (the workflow service)',
  store: 'The store (MongoDB)',
};

/**
 * 503 `service_unavailable` (`api_error`) naming the dependency that did not answer, with `Retry-After`.
 * Never kept as an Idempotency-Key's result (`retryable`): a retry with the same key runs again.
 */
export const serviceUnavailable = (dependency: Dependency) =>
  new ApiError(
    503,
    'api_error',
    'service_unavailable',
    `${DEPENDENCY_NAMES[dependency]} did not answer. Retry after ${UNAVAILABLE_RETRY_AFTER_S} s with the same Idempotency-Key; it is safe.`,
    undefined,
    { 'Retry-After': String(UNAVAILABLE_RETRY_AFTER_S) },
  );
