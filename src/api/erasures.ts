/**
 * Erasures: `GET /v1/erasures/{id}` (`contacts:read`) → the `erasure` started by
 * `DELETE /v1/contacts/{id}` or `POST /v1/contacts/erase` (src/api/contacts.ts), with its status and its
 * per-kind counts so far.
 */
import type { Router } from 'express';
import { notFound } from '../errors';
import { ErasureObject, renderErasure } from '../models/erasures';
import { findErasure } from '../services/erasure';
import { operation, operationsRouter } from './operations';

/** `GET /v1/erasures/{id}` → the erasure; 404 `resource_missing` for another tenant's or an unknown id. */
const retrieveErasure = operation({
  method: 'get',
  path: '/v1/erasures/{id}',
  operationId: 'retrieveErasure',
  tag: 'Contacts',
  summary: 'Retrieve an erasure',
  description: '`running` until every kind is done, then `completed` (and `erasure.completed` is emitted).',
  scope: 'contacts:read',
  response: ErasureObject,
  handler: async (req, res) => {
    const id = String(req.params.id);
    const doc = await findErasure(req.auth!, id);
    if (!doc) throw notFound('erasure', id, 'id');
    res.json(renderErasure(doc));
  },
});

/** Routes under `/v1/erasures` (mounted there by src/api/app.ts). */
export function erasuresRouter(): Router {
  return operationsRouter('/v1/erasures', [retrieveErasure]);
}
