/**
 * Knowledge documents (spec section 4 "Assistants and knowledge": `POST /v1/knowledge`, scope
 * `agents:write`; DESIGN.md section 10), what an agent's assistant knows:
 *
 *   POST   /v1/knowledge              `{agent_id, title, text}` → `knowledge_document` (Idempotency-Key)
 *   GET    /v1/knowledge              list, newest first; filter `agent_id`
 *   GET    /v1/knowledge/search       `agent_id`, `query`, `limit?` → the best chunks (what the assistant would get)
 *   GET    /v1/knowledge/{id}         the document
 *   POST   /v1/knowledge/{id}         `{title?, text?}`: replace (Idempotency-Key)
 *   DELETE /v1/knowledge/{id}         → `{id, object, deleted: true}`
 *
 * Reads need `agents:read`, writes `agents:write`. Text up to 500,000 characters (request bodies here may
 * be 4 MB); at most 1,000 documents per agent. Once a write has answered, no search in any process
 * returns what it replaced or deleted (src/services/knowledge.ts).
 */
import type { RequestHandler, Router } from 'express';
import { z } from 'zod';
import { ApiError, invalidParam, missingParam, notFound } from '../errors';
import {
  KnowledgeSearchListObject,
  KnowledgeDocument,
  KnowledgeDocumentObject,
  renderKnowledgeChunk,
} from '../models/knowledge';
import { DeletedObject, listOf } from '../models/wire';
import {
  createKnowledgeDocument,
  deleteKnowledgeDocument,
  findKnowledgeDocument,
  KNOWLEDGE_LIMITS,
  renderKnowledgeDocuments,
  replaceKnowledgeDocument,
  searchKnowledge,
} from '../services/knowledge';
import { findLiveAgent } from '../models/agents';
import { largeJsonBody } from './middleware';
import { idempotent } from './idempotency';
import { listPage } from './lists';
import { operation, operationsRouter } from './operations';

/** Request bodies of `/v1/knowledge` may be this large (500,000 characters of escaped JSON text). */
const BODY_LIMIT = '4mb';

/**
 * JSON body parser for `/v1/knowledge`, mounted before the API's 1 MB one (which then leaves the parsed
 * body alone). Too large → 413 `body_too_large`.
 */
export const knowledgeBody: RequestHandler = largeJsonBody(
  BODY_LIMIT,
  () =>
    new ApiError(
      413,
      'invalid_request_error',
      'body_too_large',
      `The request body is larger than ${BODY_LIMIT.replace('mb', ' MB')}.`,
    ),
);

const title = z
  .string()
  .trim()
  .min(1, 'must not be empty')
  .max(KNOWLEDGE_LIMITS.maxTitleCharacters, `must be at most ${KNOWLEDGE_LIMITS.maxTitleCharacters} characters`);
const text = z
  .string()
  .max(KNOWLEDGE_LIMITS.maxCharacters, `must be at most ${KNOWLEDGE_LIMITS.maxCharacters} characters`)
  .refine((t) => /\S/.test(t), 'must not be empty');

export const createKnowledgeSchema = z.strictObject({ agent_id: z.string().min(1), title, text });
export const replaceKnowledgeSchema = z.strictObject({ title: title.optional(), text: text.optional() });

function stringParam(query: Record<string, unknown>, name: string): string | undefined {
  const v = query[name];
  if (v === undefined) return undefined;
  if (typeof v !== 'string' || v.length === 0) throw invalidParam(name, `Invalid ${name}: must be a non-empty string.`);
  return v;
}

const tag = 'Knowledge';

/**
 * `POST /v1/knowledge` body `{agent_id, title, text}` → the `knowledge_document` (`kdoc_…`, `agent_id`,
 * `title`, `characters`, `chunks`, `created`, `updated`, `livemode`). 404 naming `agent_id` for an
 * unknown or deleted agent; 400 `knowledge_document_limit` beyond 1,000 documents for the agent; 503
 * `embedding_unavailable` when an embedding model is configured and its server fails (nothing stored).
 */
const createKnowledge = operation({
  method: 'post',
  path: '/v1/knowledge',
  operationId: 'createKnowledgeDocument',
  errors: { '400': ['knowledge_document_limit'], '404': ['resource_missing'], '503': ['embedding_unavailable'] },
  tag,
  summary: "Add a document to an agent's knowledge",
  scope: 'agents:write',
  body: createKnowledgeSchema,
  example: {
    agent_id: 'agent_01jd5x2v7c0000000000000000',
    title: 'Opening hours',
    text: 'We are open 8am to 6pm, Monday to Friday.',
  },
  response: KnowledgeDocumentObject,
  handler: async (req, res, { body }) => {
    const { orgId, livemode } = req.auth!;
    if (!(await findLiveAgent(req.auth!, body.agent_id))) throw notFound('agent', body.agent_id, 'agent_id');
    await idempotent(req, res, 'kdoc', async (id) => {
      const doc = await createKnowledgeDocument(
        { orgId, livemode, agentId: body.agent_id, id, title: body.title, text: body.text },
        async () => Boolean(await findLiveAgent(req.auth!, body.agent_id)),
      );
      return { status: 200, body: doc };
    });
  },
});

/** `GET /v1/knowledge` → list of documents, newest first; `agent_id` filters (404 naming it when unknown). */
const listKnowledge = operation({
  method: 'get',
  path: '/v1/knowledge',
  operationId: 'listKnowledgeDocuments',
  tag,
  summary: 'List knowledge documents',
  scope: 'agents:read',
  list: true,
  query: [{ name: 'agent_id', description: "Only this agent's documents." }],
  response: listOf(KnowledgeDocumentObject),
  handler: async (req, res) => {
    const filter: Record<string, unknown> = { org_id: req.auth!.orgId, livemode: req.auth!.livemode, deleted_ms: null };
    const agentId = stringParam(req.query, 'agent_id');
    if (agentId !== undefined) {
      if (!(await findLiveAgent(req.auth!, agentId))) throw notFound('agent', agentId, 'agent_id');
      filter.agent_id = agentId;
    }
    const page = await listPage(req, KnowledgeDocument, filter, (d) => d);
    res.json({ ...page, data: await renderKnowledgeDocuments(page.data) });
  },
});

/**
 * `GET /v1/knowledge/search?agent_id=&query=&limit=` → a list of `knowledge_chunk` objects (`document`,
 * `chunk`, `title`, `text`, `score`, `source`), best first: what the assistant would be given for
 * `query`, and `retrieval`: `hybrid` (BM25 and vectors fused) or `bm25` (words only). `limit` 1–20,
 * default 5.
 */
const searchKnowledgeOperation = operation({
  method: 'get',
  path: '/v1/knowledge/search',
  operationId: 'searchKnowledge',
  errors: { '404': ['resource_missing'] },
  tag,
  summary: "Search an agent's knowledge",
  description: 'What the assistant would be given for `query`, best first.',
  scope: 'agents:read',
  query: [
    { name: 'agent_id', description: 'The agent.', required: true },
    { name: 'query', description: 'What to look for (at most 1,000 characters).', required: true },
    {
      name: 'limit',
      description: 'How many chunks, 1 to 20 (default 5).',
      schema: z.int().min(1).max(20).default(5),
    },
  ],
  response: KnowledgeSearchListObject,
  handler: async (req, res) => {
    const agentId = stringParam(req.query, 'agent_id');
    if (agentId === undefined) throw missingParam('agent_id');
    const query = stringParam(req.query, 'query');
    if (query === undefined) throw missingParam('query');
    if (query.length > KNOWLEDGE_LIMITS.maxQueryCharacters)
      throw invalidParam('query', `Invalid query: must be at most ${KNOWLEDGE_LIMITS.maxQueryCharacters} characters.`);
    const rawLimit = stringParam(req.query, 'limit') ?? '5';
    if (!/^\d+$/.test(rawLimit) || Number(rawLimit) < 1 || Number(rawLimit) > 20)
      throw invalidParam('limit', 'Invalid limit: must be an integer from 1 to 20.');
    if (!(await findLiveAgent(req.auth!, agentId))) throw notFound('agent', agentId, 'agent_id');
    const { hits, retrieval } = await searchKnowledge({
      orgId: req.auth!.orgId,
      livemode: req.auth!.livemode,
      agentId,
      query,
      limit: Number(rawLimit),
    });
    res.json({
      object: 'list',
      data: hits.map(renderKnowledgeChunk),
      has_more: false,
      url: '/v1/knowledge/search',
      retrieval: retrieval === 'hybrid' ? 'hybrid' : 'bm25',
    });
  },
});

/** `GET /v1/knowledge/{id}` → the document; 404 `resource_missing` (also once deleted). */
const retrieveKnowledge = operation({
  method: 'get',
  path: '/v1/knowledge/{id}',
  operationId: 'retrieveKnowledgeDocument',
  tag,
  summary: 'Retrieve a knowledge document',
  scope: 'agents:read',
  response: KnowledgeDocumentObject,
  handler: async (req, res) => {
    const doc = await findKnowledgeDocument(req.auth!, String(req.params.id));
    if (!doc) throw notFound('knowledge document', String(req.params.id), 'id');
    res.json(doc);
  },
});

/**
 * `POST /v1/knowledge/{id}` body `{title?, text?}` (at least one) → the document with its new revision:
 * once answered, searches find the new text and never the old.
 */
const replaceKnowledge = operation({
  method: 'post',
  path: '/v1/knowledge/{id}',
  operationId: 'updateKnowledgeDocument',
  errors: { '400': ['knowledge_document_limit'], '503': ['embedding_unavailable'] },
  tag,
  summary: 'Replace a knowledge document',
  scope: 'agents:write',
  body: replaceKnowledgeSchema,
  response: KnowledgeDocumentObject,
  handler: async (req, res, { body }) => {
    if (body.title === undefined && body.text === undefined)
      throw missingParam('text', 'Missing required param: text (or title): what to replace.');
    const id = String(req.params.id);
    if (!(await findKnowledgeDocument(req.auth!, id))) throw notFound('knowledge document', id, 'id');
    await idempotent(req, res, 'req', async (requestId) => ({
      status: 200,
      body: await replaceKnowledgeDocument(req.auth!, id, requestId, { title: body.title, text: body.text }),
    }));
  },
});

/** `DELETE /v1/knowledge/{id}` → `{id, object: "knowledge_document", deleted: true}`; 404 when unknown or already deleted. */
const deleteKnowledge = operation({
  method: 'delete',
  path: '/v1/knowledge/{id}',
  operationId: 'deleteKnowledgeDocument',
  tag,
  summary: 'Delete a knowledge document',
  scope: 'agents:write',
  response: DeletedObject,
  handler: async (req, res) => {
    const id = String(req.params.id);
    if (!(await deleteKnowledgeDocument(req.auth!, id))) throw notFound('knowledge document', id, 'id');
    res.json({ id, object: 'knowledge_document' as const, deleted: true });
  },
});

/** Routes under `/v1/knowledge` (mounted there by src/api/app.ts). */
export function knowledgeRouter(): Router {
  return operationsRouter('/v1/knowledge', [
    createKnowledge,
    listKnowledge,
    searchKnowledgeOperation,
    retrieveKnowledge,
    replaceKnowledge,
    deleteKnowledge,
  ]);
}
