/**
 * Temporal connections for the API (client) and the worker, and the search attributes operators use in
 * the Temporal Web UI (registered at start: `--search-attribute` on the dev server, the operator service
 * on any other cluster, AlreadyExists ignored); and `activityKey`, the running activity's key.
 */
import { activityInfo } from '@temporalio/activity';
import { Client, Connection } from '@temporalio/client';
import { SearchAttributeType } from '@temporalio/common';
import { config } from '../config';
import { searchAttributeKeys } from '../shared/search-attributes';
import { logger } from '../logger';

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

/** Connects a Temporal client (API side). */
export async function connectClient(address?: string): Promise<Client> {
  const connection = await Connection.connect(connectionOptions(address));
  return new Client({ connection, namespace: config().temporalNamespace });
}

/** Registers our search attributes on the namespace; attributes that already exist are fine. */
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
