/**
 * WhatsApp message templates (scopes `messages:read` / `messages:write`), what `POST /v1/messages` sends
 * outside the 24-hour window:
 *
 *   POST   /v1/message_templates          register: `{name, language, body, content_sid}` (Idempotency-Key)
 *   GET    /v1/message_templates[/{id}]   list, retrieve
 */
import type { Router } from 'express';
import { z } from 'zod';
import { ApiError, invalidParam, missingParam, notFound } from '../errors';
import { placeholderCount } from '../services/conversations';
import { MessageTemplate, MessageTemplateObject, renderMessageTemplate, templateKey } from '../models/conversations';
import { isDuplicateKey } from '../models/store';
import { listOf } from '../models/wire';
import { idTime } from '../shared/ids';
import { idempotent } from './idempotency';
import { listPage } from './lists';
import { operation, operationsRouter } from './operations';

export const messageTemplateSchema = z.strictObject({
  name: z
    .string()
    .regex(/^[a-z0-9_]{1,512}$/, 'must be lowercase letters, digits and underscores (WhatsApp template names)'),
  language: z.string().regex(/^[a-z]{2,3}([_-][A-Za-z]{2,4})?$/, 'must be a language code like en or en_US'),
  body: z.string().min(1, 'must not be empty').max(1024, 'must be at most 1024 characters'),
  content_sid: z
    .string()
    .regex(/^HX[0-9a-fA-F]{32}$/, 'must be a Twilio Content SID (HX followed by 32 hex digits)')
    .optional(),
});

const tag = 'Messaging';

/**
 * `POST /v1/message_templates` `{name, language, body, content_sid}` → the template (`content_sid`, the
 * Twilio Content API SID, is required in live mode). `body` placeholders must be `{{1}}`…`{{n}}`.
 * 409 `message_template_exists` for a name and language already registered.
 */
const createMessageTemplate = operation({
  method: 'post',
  path: '/v1/message_templates',
  operationId: 'createMessageTemplate',
  errors: { '409': ['message_template_exists'] },
  tag,
  summary: 'Register a WhatsApp template',
  scope: 'messages:write',
  body: messageTemplateSchema,
  response: MessageTemplateObject,
  handler: async (req, res, { body }) => {
    const { orgId, livemode } = req.auth!;
    if (livemode && !body.content_sid)
      throw missingParam(
        'content_sid',
        "Missing required param: content_sid (live WhatsApp templates are sent through Twilio's Content API).",
      );
    const placeholders = placeholderCount(body.body);
    if (placeholders === null)
      throw invalidParam('body', 'Invalid body: placeholders must be {{1}}, {{2}}, … {{n}}, none skipped.');
    await idempotent(req, res, 'mtpl', async (id) => {
      const doc = {
        _id: id,
        key: templateKey(orgId, livemode, body.name, body.language),
        org_id: orgId,
        livemode,
        name: body.name,
        language: body.language,
        body: body.body,
        placeholders,
        content_sid: body.content_sid ?? null,
        created: Math.floor(idTime(id) / 1000),
      };
      try {
        await MessageTemplate.collection.insertOne(doc as never);
      } catch (err) {
        if (!isDuplicateKey(err)) throw err;
        if (!(await MessageTemplate.exists({ _id: id }))) {
          throw new ApiError(
            409,
            'invalid_request_error',
            'message_template_exists',
            `A template named ${body.name} (${body.language}) is already registered.`,
            'name',
          );
        }
      }
      return { status: 200, body: renderMessageTemplate(doc) };
    });
  },
});

/** `GET /v1/message_templates` → list, newest first. */
const listMessageTemplates = operation({
  method: 'get',
  path: '/v1/message_templates',
  operationId: 'listMessageTemplates',
  tag,
  summary: 'List WhatsApp templates',
  scope: 'messages:read',
  list: true,
  response: listOf(MessageTemplateObject),
  handler: async (req, res) => {
    res.json(
      await listPage(
        req,
        MessageTemplate,
        { org_id: req.auth!.orgId, livemode: req.auth!.livemode },
        renderMessageTemplate,
      ),
    );
  },
});

/** `GET /v1/message_templates/{id}` → the template; 404. */
const retrieveMessageTemplate = operation({
  method: 'get',
  path: '/v1/message_templates/{id}',
  operationId: 'retrieveMessageTemplate',
  tag,
  summary: 'Retrieve a WhatsApp template',
  scope: 'messages:read',
  response: MessageTemplateObject,
  handler: async (req, res) => {
    const doc = await MessageTemplate.findOne({
      _id: String(req.params.id),
      org_id: req.auth!.orgId,
      livemode: req.auth!.livemode,
    }).lean();
    if (!doc) throw notFound('message template', String(req.params.id), 'id');
    res.json(renderMessageTemplate(doc));
  },
});

/** Routes under `/v1/message_templates`. */
export function messageTemplatesRouter(): Router {
  return operationsRouter('/v1/message_templates', [
    createMessageTemplate,
    listMessageTemplates,
    retrieveMessageTemplate,
  ]);
}
