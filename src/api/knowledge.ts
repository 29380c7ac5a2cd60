/**
 * Knowledge documents (spec section 4 "Assistants and knowledge": `POST /v1/knowledge`, scope
 * `agents:write`; DESIGN.md section 10), what an agent's assistant knows:
 *
 *   POST   /v1/knowledge              `{agent_id, title, text}`, or a file (`file_base64` + `filename`, or
 *                                      multipart `file`), or a web source (`url`, `sitemap_url`, `crawl`;
 *                                      `refresh?`) → `knowledge_document` (Idempotency-Key)
 *   GET    /v1/knowledge              list, newest first; filter `agent_id`
 *   GET    /v1/knowledge/search       `agent_id`, `query`, `limit?` → the best chunks (what the assistant would get)
 *   GET    /v1/knowledge/{id}         the document
 *   POST   /v1/knowledge/{id}         `{title?, text?}` or `{title?}` with a file (as on create): replace
 *                                      (Idempotency-Key)
 *   DELETE /v1/knowledge/{id}         → `{id, object, deleted: true}`
 *
 * Reads need `agents:read`, writes `agents:write`. Text up to 500,000 characters, files up to 20 MB (JSON
 * request bodies here may be 28 MB); at most 1,000 documents per agent. Once a write has answered, no search in any process
 * returns what it replaced or deleted (src/services/knowledge.ts).
 */
import type { Client } from '@temporalio/client';
import type { Request, RequestHandler, Router } from 'express';
import multer from 'multer';
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
  fileContent,
  findKnowledgeDocument,
  KNOWLEDGE_LIMITS,
  textContent,
  renderKnowledgeDocuments,
  replaceKnowledgeDocument,
  searchKnowledge,
} from '../services/knowledge';
import { findLiveAgent } from '../models/agents';
import { FILE_LIMITS } from '../services/knowledge-extract';
import { createWebKnowledgeDocument, deleteKnowledge } from '../services/knowledge-sources';
import { webSourceFields, webSourceOf } from './knowledge-web';
import { largeJsonBody } from './middleware';
import { idempotent } from './idempotency';
import { listPage } from './lists';
import { operation, operationsRouter } from './operations';

/**
 * JSON request bodies of `/v1/knowledge` may be this large: a 20 MB file as `file_base64` (4/3 of it),
 * or 500,000 characters of escaped JSON text.
 */
const BODY_LIMIT = '28mb';

const MB = 1024 * 1024;
const fileTooLarge = (param: string) =>
  new ApiError(
    400,
    'invalid_request_error',
    'file_too_large',
    `The file is larger than ${FILE_LIMITS.maxFileBytes / MB} MB.`,
    param,
  );

/**
 * True for `POST /v1/knowledge` or `POST /v1/knowledge/{id}` sent as `multipart/form-data` (src/api/app.ts
 * lets it past the JSON-only check).
 */
export function isKnowledgeUpload(req: Request): boolean {
  const encoding = (req.get('Content-Encoding') ?? 'identity').trim().toLowerCase();
  return (
    req.method === 'POST' &&
    /^\/knowledge(\/[^/]+)?$/.test(req.path) &&
    encoding === 'identity' &&
    Boolean(req.is('multipart/form-data'))
  );
}

/** The multipart parser (`multer`, in memory): one `file` part up to `FILE_LIMITS.maxFileBytes`, a few text fields. */
const upload = multer({
  storage: multer.memoryStorage(),
  defParamCharset: 'utf8',
  limits: { fileSize: FILE_LIMITS.maxFileBytes, files: 1, fields: 10, parts: 11, fieldSize: 4 * MB },
}).single('file');

/**
 * Parses a multipart `POST /v1/knowledge` (or `/v1/knowledge/{id}`) into the JSON body's shape: its text fields as they are, and
 * its `file` part as `file_base64`, `filename` and (unless `application/octet-stream`) `content_type`, so
 * validation, idempotency (the fingerprint covers the file) and the handler see one shape.
 * @throws ApiError 400 `file_too_large` naming `file`; `parameter_unknown` for another file part;
 *   `body_invalid` for a malformed form
 */
const multipartBody: RequestHandler = (req, res, next) =>
  upload(req, res, (err?: unknown) => {
    if (err) {
      const e = err as { code?: string; field?: string; message?: string };
      if (e.code === 'LIMIT_FILE_SIZE') return next(fileTooLarge('file'));
      if (e.code === 'LIMIT_UNEXPECTED_FILE')
        return next(
          new ApiError(
            400,
            'invalid_request_error',
            'parameter_unknown',
            `Received unknown file part: ${e.field}; send the file as \`file\`.`,
            e.field,
          ),
        );
      return next(
        new ApiError(400, 'invalid_request_error', 'body_invalid', `The multipart body is invalid: ${e.message}.`),
      );
    }
    const body: Record<string, unknown> = { ...(req.body as Record<string, unknown>) };
    const file = req.file;
    if (file) {
      if (body.file_base64 !== undefined)
        return next(
          invalidParam('file_base64', 'Invalid file_base64: send the file either as a part or in base64, not both.'),
        );
      body.file_base64 = file.buffer.toString('base64');
      body.filename ??= file.originalname;
      if (file.mimetype && file.mimetype !== 'application/octet-stream') body.content_type ??= file.mimetype;
    }
    req.body = body;
    (req as { _body?: boolean })._body = true; // read: the JSON parsers after this step aside
    next();
  });

const jsonKnowledgeBody = largeJsonBody(
  BODY_LIMIT,
  () =>
    new ApiError(
      413,
      'invalid_request_error',
      'body_too_large',
      `The request body is larger than ${BODY_LIMIT.replace('mb', ' MB')}.`,
    ),
);

/**
 * Body parser for `/v1/knowledge`, mounted before the API's 1 MB one (which then leaves the parsed body
 * alone): `multipart/form-data` for an upload to `POST /v1/knowledge` or `POST /v1/knowledge/{id}`
 * (`multipartBody`), else JSON up to 28 MB (too large → 413 `body_too_large`).
 */
export const knowledgeBody: RequestHandler = (req, res, next) =>
  req.method === 'POST' && /^\/([^/]+)?$/.test(req.path) && Boolean(req.is('multipart/form-data'))
    ? multipartBody(req, res, next)
    : jsonKnowledgeBody(req, res, next);

const title = z
  .string()
  .trim()
  .min(1, 'must not be empty')
  .max(KNOWLEDGE_LIMITS.maxTitleCharacters, `must be at most ${KNOWLEDGE_LIMITS.maxTitleCharacters} characters`);
const text = z
  .string()
  .max(KNOWLEDGE_LIMITS.maxCharacters, `must be at most ${KNOWLEDGE_LIMITS.maxCharacters} characters`)
  .refine((t) => /\S/.test(t), 'must not be empty');

const base64 = z
  .string()
  .max(
    Math.ceil(FILE_LIMITS.maxFileBytes / 3) * 4 + 1024,
    `must be at most ${FILE_LIMITS.maxFileBytes / MB} MB once decoded`,
  )
  .refine((v) => /^[A-Za-z0-9+/\s]*={0,2}\s*$/.test(v), 'must be base64');

/** A file given in JSON (create and replace). */
const fileFields = {
  file_base64: base64
    .optional()
    .describe(
      `A file, base64-encoded (at most ${FILE_LIMITS.maxFileBytes / MB} MB decoded): PDF, DOCX, HTML, Markdown, TXT or CSV.`,
    ),
  filename: z
    .string()
    .trim()
    .min(1, 'must not be empty')
    .max(255, 'must be at most 255 characters')
    .optional()
    .describe("The file's name; its extension gives its type (with `file_base64`)."),
  content_type: z
    .string()
    .max(255)
    .optional()
    .describe("The file's type, when its name has no known extension (`application/pdf`, `text/csv`, …)."),
};

export const createKnowledgeSchema = z.strictObject({
  agent_id: z.string().min(1),
  title: title
    .optional()
    .describe(
      "Required with `text`; a file's defaults to its own title, else its name; a web source's to its first page's title.",
    ),
  text: text.optional().describe('The document as text. Exactly one of `text`, a file, `url`, `sitemap_url`, `crawl`.'),
  ...fileFields,
  ...webSourceFields,
});

/** The same fields as a `multipart/form-data` upload (documented only: the parser maps it to the JSON shape). */
const createKnowledgeMultipart = z.strictObject({
  agent_id: z.string(),
  title: z.string().optional(),
  file: z
    .string()
    .meta({ format: 'binary', contentMediaType: 'application/octet-stream' })
    .describe(
      `The file (at most ${FILE_LIMITS.maxFileBytes / MB} MB); its part's filename and Content-Type give its type.`,
    ),
});
export const replaceKnowledgeSchema = z.strictObject({
  title: title.optional().describe('The new title; left as it is when not given (also with a new file).'),
  text: text.optional().describe('The new content as text. At most one of `text` and a file.'),
  ...fileFields,
});

/** The replace fields as a `multipart/form-data` upload (documented only: the parser maps it to the JSON shape). */
const replaceKnowledgeMultipart = z.strictObject({
  title: z.string().optional(),
  file: createKnowledgeMultipart.shape.file
    .optional()
    .describe(
      `The new file (at most ${FILE_LIMITS.maxFileBytes / MB} MB); its part's filename and Content-Type give its type. Without it, only \`title\` changes.`,
    ),
});

function stringParam(query: Record<string, unknown>, name: string): string | undefined {
  const v = query[name];
  if (v === undefined) return undefined;
  if (typeof v !== 'string' || v.length === 0) throw invalidParam(name, `Invalid ${name}: must be a non-empty string.`);
  return v;
}

const tag = 'Knowledge';

/** The source fields of a create body: exactly one of them is given. */
const SOURCES = ['text', 'file_base64', 'url', 'sitemap_url', 'crawl'] as const;

/**
 * Checks that a create body gives exactly one source.
 * @throws ApiError 400 `parameter_missing` naming `text` for none; `parameter_invalid` naming the second one given
 */
function oneSource(body: z.output<typeof createKnowledgeSchema>): void {
  const given = SOURCES.filter((k) => body[k] !== undefined);
  if (given.length === 0 && (body.filename !== undefined || body.content_type !== undefined))
    throw missingParam(
      'file_base64',
      'Missing required param: file_base64 (filename and content_type describe a file).',
    );
  if (given.length === 0)
    throw missingParam(
      'text',
      'Missing required param: text (or a file: file_base64 and filename, or a multipart file; or url, sitemap_url, crawl).',
    );
  if (given.length > 1)
    throw invalidParam(
      given[1],
      `Invalid ${given[1]}: give only one of text, a file (file_base64 or a multipart file), url, sitemap_url and crawl.`,
    );
}

/** The file of a create or replace request (`file_base64` + `filename`), decoded; null when it has none. */
function fileOf(body: {
  file_base64?: string;
  filename?: string;
  content_type?: string;
}): { bytes: Buffer; filename: string; contentType?: string } | null {
  if (body.file_base64 === undefined) {
    if (body.filename !== undefined || body.content_type !== undefined)
      throw missingParam(
        'file_base64',
        'Missing required param: file_base64 (filename and content_type describe a file).',
      );
    return null;
  }
  if (body.filename === undefined)
    throw missingParam('filename', "Missing required param: filename (its extension gives the file's type).");
  const bytes = Buffer.from(body.file_base64, 'base64');
  if (bytes.length > FILE_LIMITS.maxFileBytes) throw fileTooLarge('file_base64');
  if (bytes.length === 0) throw invalidParam('file_base64', 'Invalid file_base64: the file is empty.');
  return { bytes, filename: body.filename, contentType: body.content_type };
}

/**
 * `POST /v1/knowledge` body `{agent_id, title, text}`, or a file: `{agent_id, title?, file_base64,
 * filename, content_type?}` in JSON or `multipart/form-data` with a `file` part → the
 * `knowledge_document` (`kdoc_…`, `agent_id`, `title`, `characters`, `chunks`, `source`, `status`,
 * `failure_reason`, `created`, `updated`, `livemode`). A file is extracted in the request
 * (src/services/knowledge-extract.ts; at most 30 s): the answer is `ready`, or `failed` with a
 * `failure_reason` for a file that gives no text (the document is kept; delete it or upload another).
 * 404 naming `agent_id` for an unknown or deleted agent; 400 `knowledge_document_limit` beyond 1,000
 * documents for the agent; 400 `file_type_unsupported` naming `filename` (or `file`) for a type not
 * taken; 400 `file_too_large` past 20 MB; 503 `embedding_unavailable` when an embedding model is configured
 * and its server fails (nothing stored).
 */
const createKnowledge = (temporal: Client) =>
  operation({
    method: 'post',
    path: '/v1/knowledge',
    operationId: 'createKnowledgeDocument',
    errors: {
      '400': [
        'knowledge_document_limit',
        'file_type_unsupported',
        'file_too_large',
        'url_private_address',
        'url_unresolvable',
      ],
      '404': ['resource_missing'],
      '503': ['embedding_unavailable'],
    },
    tag,
    summary: "Add a document to an agent's knowledge",
    description: `Text; or a file (PDF, DOCX, HTML, Markdown, TXT or CSV, at most ${FILE_LIMITS.maxFileBytes / MB} MB, as \`file_base64\` + \`filename\` or a \`multipart/form-data\` upload with a \`file\` part), extracted while the request runs: the answer is \`ready\`, or \`failed\` with a \`failure_reason\`; or a web page, a sitemap or a crawl of a site (\`status: "processing"\` until read).`,
    scope: 'agents:write',
    body: createKnowledgeSchema,
    multipart: createKnowledgeMultipart,
    example: {
      agent_id: 'agent_01jd5x2v7c0000000000000000',
      title: 'Opening hours',
      text: 'We are open 8am to 6pm, Monday to Friday.',
    },
    response: KnowledgeDocumentObject,
    handler: async (req, res, { body }) => {
      const { orgId, livemode } = req.auth!;
      oneSource(body);
      const file = fileOf(body);
      const web = await webSourceOf(body);
      if (!file && !web && body.title === undefined) throw missingParam('title');
      if (!(await findLiveAgent(req.auth!, body.agent_id))) throw notFound('agent', body.agent_id, 'agent_id');
      const isAgentLive = async () => Boolean(await findLiveAgent(req.auth!, body.agent_id));
      await idempotent(req, res, 'kdoc', async (id) => {
        const scope = { orgId, livemode, agentId: body.agent_id, id };
        if (web)
          return {
            status: 200,
            body: await createWebKnowledgeDocument(temporal, { ...scope, title: body.title }, web, isAgentLive),
          };
        const content = file
          ? await fileContent(file, req.is('multipart/form-data') ? 'file' : 'filename')
          : textContent(body.text!);
        const documentTitle = (body.title ?? content.title?.trim() ?? file!.filename).slice(
          0,
          KNOWLEDGE_LIMITS.maxTitleCharacters,
        );
        const doc = await createKnowledgeDocument(
          { ...scope, title: documentTitle || file!.filename, content },
          isAgentLive,
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
 * `POST /v1/knowledge/{id}` body `{title?, text?}`, or `{title?}` with a file (`file_base64` + `filename`
 * + `content_type?` in JSON, or a `multipart/form-data` upload with a `file` part, as on create) → the
 * document with its new revision, same id: once answered, searches find the new content and never the old.
 * Fields not given are left as they are (Stripe's update semantics): a new file keeps the document's title
 * unless `title` is given; the document's `source` becomes the new file (or `text`). A file that gives no
 * text makes the document `failed` with its `failure_reason`, as on create. Errors (nothing changed): 400
 * `parameter_missing` naming `text` when nothing is given; `parameter_invalid` naming `file_base64` (or
 * `file`) for text and a file together; `parameter_invalid` naming the field given (`text`, `file_base64`,
 * `file`, `title`) for a web source (`url`, `crawl`), which only its crawls change; `file_type_unsupported`,
 * `file_too_large` as on create; 404 for an unknown or deleted document.
 */
const replaceKnowledge = operation({
  method: 'post',
  path: '/v1/knowledge/{id}',
  operationId: 'updateKnowledgeDocument',
  errors: {
    '400': ['knowledge_document_limit', 'file_type_unsupported', 'file_too_large'],
    '503': ['embedding_unavailable'],
  },
  tag,
  summary: 'Replace a knowledge document',
  description: `A new title, new text, or a new file (PDF, DOCX, HTML, Markdown, TXT or CSV, at most ${FILE_LIMITS.maxFileBytes / MB} MB, as \`file_base64\` + \`filename\` or a \`multipart/form-data\` upload with a \`file\` part): the same document, a new revision. Fields not given stay as they are. A web source (\`url\`, \`sitemap_url\`, \`crawl\`) is changed only by its crawls: 400 \`parameter_invalid\`.`,
  scope: 'agents:write',
  body: replaceKnowledgeSchema,
  multipart: replaceKnowledgeMultipart,
  response: KnowledgeDocumentObject,
  handler: async (req, res, { body }) => {
    const fileParam = req.is('multipart/form-data') ? 'file' : 'file_base64';
    if (body.text !== undefined && body.file_base64 !== undefined)
      throw invalidParam(fileParam, `Invalid ${fileParam}: give either text or a file, not both.`);
    const file = fileOf(body);
    if (body.title === undefined && body.text === undefined && !file)
      throw missingParam('text', 'Missing required param: text (or a file, or title): what to replace.');
    const id = String(req.params.id);
    const found = await findKnowledgeDocument(req.auth!, id);
    if (!found) throw notFound('knowledge document', id, 'id');
    if (found.source.type === 'url' || found.source.type === 'crawl') {
      const param = file ? fileParam : body.text !== undefined ? 'text' : 'title';
      throw invalidParam(
        param,
        `Invalid ${param}: a web source is replaced by its crawls only; delete it and add the new content as another document.`,
      );
    }
    await idempotent(req, res, 'req', async (requestId) => {
      const content = file
        ? await fileContent(file, fileParam === 'file' ? 'file' : 'filename')
        : body.text !== undefined
          ? textContent(body.text)
          : undefined;
      return {
        status: 200,
        body: await replaceKnowledgeDocument(req.auth!, id, requestId, { title: body.title, content }),
      };
    });
  },
});

/**
 * `DELETE /v1/knowledge/{id}` → `{id, object: "knowledge_document", deleted: true}`; 404 when unknown or
 * already deleted. A web source's refresh schedule and running crawls go first, then every chunk.
 */
const deleteKnowledgeOperation = (temporal: Client) =>
  operation({
    method: 'delete',
    path: '/v1/knowledge/{id}',
    operationId: 'deleteKnowledgeDocument',
    tag,
    summary: 'Delete a knowledge document',
    scope: 'agents:write',
    response: DeletedObject,
    handler: async (req, res) => {
      const id = String(req.params.id);
      if (!(await deleteKnowledge(temporal, req.auth!, id))) throw notFound('knowledge document', id, 'id');
      res.json({ id, object: 'knowledge_document' as const, deleted: true });
    },
  });

/**
 * Routes under `/v1/knowledge` (mounted there by src/api/app.ts); `temporal` starts a web source's crawl and
 * removes its refresh schedule and crawls on delete.
 */
export function knowledgeRouter(temporal: Client): Router {
  return operationsRouter('/v1/knowledge', [
    createKnowledge(temporal),
    listKnowledge,
    searchKnowledgeOperation,
    retrieveKnowledge,
    replaceKnowledge,
    deleteKnowledgeOperation(temporal),
  ]);
}
