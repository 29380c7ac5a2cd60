/**
 * The account (issue 28 item 5): `GET /v1/account` shows the key's organization to itself in the key's
 * mode — its id, name, mode and limits (`max_concurrent_calls`, set by the operator with `svcctl limits
 * set`). Any secret or restricted key may read it (scope `account:read`, which every restricted key holds:
 * src/keys.ts `IMPLIED_SCOPES`); a publishable key is 403 as everywhere but the widget.
 */
import type { Router } from 'express';
import { notFound } from '../errors';
import { AccountObject } from '../models/orgs';
import { retrieveAccount } from '../services/limits';
import { operation, operationsRouter } from './operations';

/**
 * `GET /v1/account` → the `account` object of the key's organization and mode.
 * Errors: 401 without a valid key; 403 `scope_missing` for a publishable key; 404 `resource_missing` when
 * the organization no longer exists; 400 `parameter_unknown` for any query parameter.
 */
const retrieveAccountOperation = operation({
  method: 'get',
  path: '/v1/account',
  operationId: 'retrieveAccount',
  tag: 'Account',
  summary: 'Retrieve the account',
  description:
    "The key's organization in the key's mode: id, name, mode and limits. Every secret or restricted key may read it.",
  scope: 'account:read',
  response: AccountObject,
  handler: async (req, res) => {
    const { orgId, livemode } = req.auth!;
    const account = await retrieveAccount({ orgId, livemode });
    if (!account) throw notFound('organization', orgId);
    res.json(account);
  },
});

/** Routes under `/v1/account` (mounted there by src/api/app.ts). */
export function accountRouter(): Router {
  return operationsRouter('/v1/account', [retrieveAccountOperation]);
}
