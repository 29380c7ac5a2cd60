/**
 * Helpers of the tool tests (test/integration/tool-calls*.test.ts): an http tool on a loopback HTTPS
 * receiver, and an agent given tools.
 */
import { expect } from 'chai';
import { request } from './harness';
import type { HttpsReceiver } from './https-receiver';
import type { Tenant } from './webhooks';

/** The arguments' schema of the tests' tools: an order id such as `A17`, nothing else. */
export const LOOKUP = {
  type: 'object',
  properties: { order_id: { type: 'string', pattern: '^[A-Z][0-9]+$' } },
  required: ['order_id'],
  additionalProperties: false,
};

/**
 * Creates an http tool on `receiver` at `pathname` (`POST /v1/tools`, static header
 * `Authorization: Bearer customer-key`, `extra` overriding any field); answers the tool object (with its secret).
 */
export async function createHttpTool(
  tenant: Tenant,
  receiver: HttpsReceiver,
  name: string,
  pathname: string,
  extra: Record<string, unknown> = {},
) {
  const res = await request('POST', '/v1/tools', {
    key: tenant.testKey,
    body: {
      type: 'http',
      name,
      description: `The ${name} tool.`,
      parameters: LOOKUP,
      url: receiver.url(pathname),
      headers: { Authorization: 'Bearer customer-key' },
      ...extra,
    },
  });
  expect(res.status, JSON.stringify(res.body)).to.equal(200);
  return res.body;
}

/** Gives the tenant's agent these tools (`tool_ids`). */
export async function useTools(tenant: Tenant, toolIds: string[]) {
  const res = await request('POST', `/v1/agents/${tenant.agentId}`, {
    key: tenant.testKey,
    body: { tool_ids: toolIds },
  });
  expect(res.status, JSON.stringify(res.body)).to.equal(200);
}
