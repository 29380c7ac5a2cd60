/**
 * Temporal connections for the API (client) and the worker, and the search attributes operators use in
 * the Temporal Web UI: `npm start` registers them on its embedded dev server (`--search-attribute`, and
 * `ensureSearchAttributes`); the production entry points (src/api/main.ts, src/worker/main.ts) only
 * check that an operator registered them (`verifySearchAttributes`) and refuse to start otherwise. And
 * `activityKey`, the running activity's key.
 */
import { activityInfo } from '@temporalio/activity';
import {
  Client,
  Connection,
  ServiceError,
  WorkflowUpdateRPCTimeoutOrCancelledError,
  defaultGrpcRetryOptions,
  makeGrpcRetryInterceptor,
} from '@temporalio/client';
import { SearchAttributeType } from '@temporalio/common';
import { InterceptingCall, status as grpcStatus, type Interceptor } from '@grpc/grpc-js';
import { config } from '../config';
import { DEPENDENCY_DEADLINE_MS } from '../errors';
import { searchAttributeKeys } from '../shared/search-attributes';
import { logger } from '../logger';
import { dataConverter } from './payload-codec';
import { temporalClientInterceptors } from './tracing';

export { searchAttributeKeys };

/** `Name=Keyword` pairs for `temporal server start-dev --search-attribute`. */
export const devServerSearchAttributeFlags = Object.values(searchAttributeKeys).flatMap((k) => [
  '--search-attribute',
  `${k.name}=${k.type === SearchAttributeType.BOOL ? 'Bool' : 'Keyword'}`,
]);

/** Options for `Connection.connect` / `NativeConnection.connect` from the configuration. */
export function connectionOptions(address = config().temporalAddress ?? '127.0.0.1:7233') {
  const cfg = config();
  return { address, tls: cfg.temporalTls ? {} : undefined, apiKey: cfg.temporalApiKey };
}

const { DEADLINE_EXCEEDED, UNAVAILABLE } = grpcStatus;

/**
 * Requests that wait on a workflow by design (an update's outcome, a run's history as it grows): they get
 * no deadline of ours. A server that is down still fails them fast: UNAVAILABLE, retried a bounded while.
 */
const WAITING_METHODS =
  /\/(UpdateWorkflowExecution|ExecuteMultiOperation|PollWorkflowExecutionUpdate|GetWorkflowExecutionHistory)$/;

/**
 * Gives every Temporal request that does not wait on a workflow a deadline of `deadlineMs` (unless its
 * caller set one), covering the retries of the interceptor inside it: a server that takes no calls
 * (stopped, partitioned) fails the request with DEADLINE_EXCEEDED instead of holding it.
 */
export function deadlineInterceptor(deadlineMs = DEPENDENCY_DEADLINE_MS): Interceptor {
  return (options, nextCall) =>
    new InterceptingCall(
      nextCall(
        options.deadline !== undefined || WAITING_METHODS.test(options.method_definition.path)
          ? options
          : { ...options, deadline: Date.now() + deadlineMs },
      ),
    );
}

/** Attempts of one request while the server is UNAVAILABLE: four, about 1.8 s of backoff in all. */
const UNAVAILABLE_ATTEMPTS = 4;

/**
 * The SDK's retry interceptor (backoff 100 ms × 1.7ⁿ, up to 10 attempts, longer on RESOURCE_EXHAUSTED),
 * except that UNAVAILABLE (the server down or restarting) is tried `UNAVAILABLE_ATTEMPTS` times, not for
 * the ~20 s of the default: the API answers 503 and its client retries.
 */
export function boundedRetryInterceptor(): Interceptor {
  const base = defaultGrpcRetryOptions();
  return makeGrpcRetryInterceptor({
    delayFunction: base.delayFunction,
    retryableDecider: (attempt, status) =>
      base.retryableDecider(attempt, status) && (status.code !== UNAVAILABLE || attempt < UNAVAILABLE_ATTEMPTS),
  });
}

/**
 * Connects a Temporal client (API side), with deadlines (`deadlineInterceptor`) and a bounded retry of
 * an unreachable server (`boundedRetryInterceptor`), so that a request answers 503 within 5 s when
 * Temporal does not answer. Payloads are encrypted (src/platform/payload-codec.ts). With tracing on, the
 * client carries the trace context to workflows (src/platform/tracing.ts).
 */
export async function connectClient(address?: string): Promise<Client> {
  const connection = await Connection.connect({
    ...connectionOptions(address),
    interceptors: [deadlineInterceptor(), boundedRetryInterceptor()],
  });
  const interceptors = temporalClientInterceptors(); // the trace context on starts, signals, updates (tracing on)
  return new Client({ connection, namespace: config().temporalNamespace, dataConverter, interceptors });
}

/**
 * True when `err` (or one of its causes) says Temporal did not answer, rather than refused a request:
 * gRPC UNAVAILABLE (no connection, the connection dropped) or DEADLINE_EXCEEDED, or an update whose
 * request timed out. The API answers these 503.
 */
export function isTemporalUnavailable(err: unknown): boolean {
  for (let e = err, i = 0; typeof e === 'object' && e !== null && i < 5; e = (e as { cause?: unknown }).cause, i++) {
    if (e instanceof WorkflowUpdateRPCTimeoutOrCancelledError) return true;
    const { code, details } = e as { code?: unknown; details?: unknown };
    const grpc = e instanceof ServiceError || typeof details === 'string';
    if (grpc && (code === UNAVAILABLE || code === DEADLINE_EXCEEDED)) return true;
  }
  return false;
}

/**
 * True when `err` says no connection to Temporal could be made (or it dropped), as opposed to a server
 * that answered UNAVAILABLE for one workflow (an update aborted as the workflow continues as new).
 */
export function isTemporalUnreachable(err: unknown): boolean {
  for (let e = err, i = 0; typeof e === 'object' && e !== null && i < 5; e = (e as { cause?: unknown }).cause, i++) {
    const { code, details } = e as { code?: unknown; details?: unknown };
    if (code === DEADLINE_EXCEEDED && typeof details === 'string') return true;
    if (
      code === UNAVAILABLE &&
      typeof details === 'string' &&
      /no connection|connection dropped|ECONNREFUSED|ECONNRESET|EHOSTUNREACH|ETIMEDOUT|ENOTFOUND/i.test(details)
    )
      return true;
  }
  return false;
}

/**
 * Registers our search attributes on the namespace; attributes that already exist are fine. Only for the
 * embedded development server of `npm start` (src/dev/start.ts), which the service owns: on any other
 * cluster an operator registers them (`temporal operator search-attribute create`, README "Scaling out")
 * and the service checks (`verifySearchAttributes`). Failures are logged, not thrown.
 */
export async function ensureSearchAttributes(client: Client): Promise<void> {
  const namespace = config().temporalNamespace;
  try {
    const existing = await client.connection.operatorService.listSearchAttributes({ namespace });
    const missing = Object.values(searchAttributeKeys).filter((k) => !(k.name in (existing.customAttributes ?? {})));
    if (missing.length === 0) return;
    await client.connection.operatorService.addSearchAttributes({
      namespace,
      // temporal.api.enums.v1.IndexedValueType: 2 = KEYWORD, 5 = BOOL
      searchAttributes: Object.fromEntries(missing.map((k) => [k.name, k.type === SearchAttributeType.BOOL ? 5 : 2])),
    });
    logger.info('registered search attributes', { names: missing.map((k) => k.name) });
  } catch (err) {
    if (/already exists/i.test((err as Error).message)) return;
    logger.warn(
      'could not register search attributes (register them with `temporal operator search-attribute create`)',
      { error: (err as Error).message },
    );
  }
}

/** The `temporal operator search-attribute create --type` name of one of our keys' types. */
const cliTypeName = (k: { type: SearchAttributeType }) => (k.type === SearchAttributeType.BOOL ? 'Bool' : 'Keyword');

/** temporal.api.enums.v1.IndexedValueType of one of our keys' types: 2 = KEYWORD, 5 = BOOL. */
const indexedValueType = (k: { type: SearchAttributeType }) => (k.type === SearchAttributeType.BOOL ? 5 : 2);

/**
 * The problems `verifySearchAttributes` finds, as sentences: each of our search attributes
 * (`searchAttributeKeys`) missing from the namespace's custom attributes `existing` (name → Temporal's
 * IndexedValueType number, as ListSearchAttributes returns them), or registered with another type.
 */
export function searchAttributeProblems(existing: Record<string, number>): string[] {
  return Object.values(searchAttributeKeys).flatMap((k) => {
    if (!(k.name in existing)) return [`${k.name} (${cliTypeName(k)}) is missing`];
    if (Number(existing[k.name]) !== indexedValueType(k))
      return [`${k.name} is registered with IndexedValueType ${existing[k.name]}, not ${cliTypeName(k)}`];
    return [];
  });
}

/**
 * Checks, at the start of an API or worker process, that every search attribute the service sets on its
 * workflows (src/shared/search-attributes.ts) is registered on the namespace with its type, through the
 * operator service's ListSearchAttributes. Without them every call start or status update would fail
 * later with INVALID_ARGUMENT ("search attribute … is not defined"); instead the process refuses to start.
 * A server that does not let this client list them (PERMISSION_DENIED, UNIMPLEMENTED: a namespace-scoped
 * API key on a cloud service) cannot be checked: that is logged as a warning and the start goes on.
 * @throws Error naming each missing or mistyped attribute and the `temporal operator` commands that
 *   register them; or the server's error when the namespace does not exist or Temporal does not answer
 */
export async function verifySearchAttributes(client: Client, namespace = config().temporalNamespace): Promise<void> {
  let existing: Record<string, number>;
  try {
    const res = await client.connection.operatorService.listSearchAttributes({ namespace });
    existing = (res.customAttributes ?? {}) as Record<string, number>;
  } catch (err) {
    const code = (err as { code?: unknown }).code;
    if (code !== grpcStatus.PERMISSION_DENIED && code !== grpcStatus.UNIMPLEMENTED)
      throw new Error(
        `could not list the search attributes of Temporal namespace "${namespace}": ${(err as Error).message}`,
        { cause: err },
      );
    logger.warn('cannot check the search attributes (not allowed to list them): assuming they are registered', {
      namespace,
      error: (err as Error).message,
    });
    return;
  }
  const problems = searchAttributeProblems(existing);
  if (problems.length === 0) return;
  const commands = Object.values(searchAttributeKeys)
    .filter((k) => existing[k.name] === undefined)
    .map(
      (k) =>
        `  temporal operator search-attribute create --namespace ${namespace} --name ${k.name} --type ${cliTypeName(k)}`,
    );
  throw new Error(
    `Temporal namespace "${namespace}" lacks search attributes the service sets: ${problems.join('; ')}. ` +
      'Register them as an operator before starting the service' +
      (commands.length > 0 ? `:\n${commands.join('\n')}` : ' (a mistyped one must be removed and created again)') +
      '\n(README "Scaling out"; `npm start` registers them on its own embedded server).',
  );
}

/**
 * The running activity's key, the same on every attempt: `<workflow id>:<run id>:<activity id>`
 * (`standalone` for the workflow part of an activity run outside a workflow). The knowledge-search usage
 * rows of `generateReply` and `searchKnowledge` are keyed by it, so a retried attempt meters a search once.
 * @throws Error outside an activity (`activityInfo` has no context)
 */
export function activityKey(): string {
  const { workflowExecution: wf, activityId } = activityInfo();
  return `${wf ? `${wf.workflowId}:${wf.runId}` : 'standalone'}:${activityId}`;
}
