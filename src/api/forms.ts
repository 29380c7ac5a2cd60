/**
 * Forms (beyond the specification, which names a campaign's `form_id` but no way to make one; scopes
 * `calls:read` / `calls:write`):
 *
 *   POST /v1/forms        `{name, fields: [{key, type, description?, required?, options?}]}` (Idempotency-Key)
 *   GET  /v1/forms        list, newest first
 *   GET  /v1/forms/{id}   the form
 *
 * `type` is `string`, `number`, `boolean`, `enum` (with `options`) or `date` (src/shared/forms.ts). A form
 * never changes once created, so every call of a campaign fills the same fields.
 */
import type { Router } from 'express';
import { z } from 'zod';
import { invalidParam, missingParam, notFound } from '../errors';
import { Form, FormObject, renderForm } from '../models/forms';
import { insertIfAbsent } from '../models/store';
import { listOf } from '../models/wire';
import { FORM_FIELD_TYPES, FORM_KEY_PATTERN } from '../shared/forms';
import { idTime } from '../shared/ids';
import { idempotent } from './idempotency';
import { listPage } from './lists';
import { operation, operationsRouter } from './operations';
import { parseIndexed } from './validation';

/** Fields a form may have. */
export const MAX_FORM_FIELDS = 50;

const fieldSchema = z.strictObject({
  key: z
    .string()
    .regex(FORM_KEY_PATTERN, 'must start with a lower-case letter and hold only a-z, 0-9 and _, at most 40 characters'),
  type: z.enum(FORM_FIELD_TYPES),
  description: z.string().trim().min(1, 'must not be empty').max(500, 'must be at most 500 characters').optional(),
  required: z.boolean().optional(),
  options: z
    .array(z.string().trim().min(1, 'options must not be empty').max(200, 'options must be at most 200 characters'))
    .min(1, 'must have at least one option')
    .max(50, 'must have at most 50 options')
    .optional(),
});

export const createFormSchema = z.strictObject({
  name: z.string().trim().min(1, 'must not be empty').max(200, 'must be at most 200 characters'),
  fields: z
    .array(fieldSchema)
    .min(1, 'must have at least one field')
    .max(MAX_FORM_FIELDS, `must have at most ${MAX_FORM_FIELDS} fields`),
});

const tag = 'Bulk calls';

/** `POST /v1/forms` → the form. 400 naming the field (`fields[2].options`) on bad input. */
const createForm = operation({
  method: 'post',
  path: '/v1/forms',
  operationId: 'createForm',
  tag,
  summary: 'Create a form',
  description: `Field types: ${FORM_FIELD_TYPES.join(', ')} (\`enum\` with \`options\`).`,
  scope: 'calls:write',
  bodyDoc: createFormSchema,
  example: {
    name: 'Appointment survey',
    fields: [
      { key: 'satisfied', type: 'boolean', required: true },
      { key: 'preferred_day', type: 'enum', options: ['mon', 'tue', 'wed'] },
    ],
  },
  response: FormObject,
  handler: async (req, res) => {
    const body = parseIndexed(createFormSchema, req.body);
    const seen = new Set<string>();
    body.fields.forEach((f, i) => {
      if (seen.has(f.key))
        throw invalidParam(`fields[${i}].key`, `Invalid fields[${i}].key: '${f.key}' is used by another field.`);
      seen.add(f.key);
      if (f.type === 'enum' && !f.options)
        throw missingParam(
          `fields[${i}].options`,
          `Missing required param: fields[${i}].options (an enum field lists its options).`,
        );
      if (f.type !== 'enum' && f.options)
        throw invalidParam(`fields[${i}].options`, `Invalid fields[${i}].options: only an enum field has options.`);
      if (f.options && new Set(f.options.map((o) => o.toLowerCase())).size !== f.options.length) {
        throw invalidParam(
          `fields[${i}].options`,
          `Invalid fields[${i}].options: options must differ (case is ignored).`,
        );
      }
    });
    await idempotent(req, res, 'form', async (id) => {
      const doc = {
        _id: id,
        org_id: req.auth!.orgId,
        livemode: req.auth!.livemode,
        name: body.name,
        fields: body.fields.map((f) => ({
          key: f.key,
          type: f.type,
          description: f.description ?? null,
          required: f.required ?? false,
          options: f.options ?? null,
        })),
        created: Math.floor(idTime(id) / 1000),
      };
      await insertIfAbsent(Form, doc);
      return { status: 200, body: renderForm(doc) };
    });
  },
});

/** `GET /v1/forms` → list of forms, newest first. */
const listForms = operation({
  method: 'get',
  path: '/v1/forms',
  operationId: 'listForms',
  tag,
  summary: 'List forms',
  scope: 'calls:read',
  list: true,
  response: listOf(FormObject),
  handler: async (req, res) => {
    res.json(await listPage(req, Form, { org_id: req.auth!.orgId, livemode: req.auth!.livemode }, renderForm));
  },
});

/** `GET /v1/forms/{id}` → the form; 404 `resource_missing`. */
const retrieveForm = operation({
  method: 'get',
  path: '/v1/forms/{id}',
  operationId: 'retrieveForm',
  tag,
  summary: 'Retrieve a form',
  scope: 'calls:read',
  response: FormObject,
  handler: async (req, res) => {
    const doc = await Form.findOne({
      _id: String(req.params.id),
      org_id: req.auth!.orgId,
      livemode: req.auth!.livemode,
    }).lean();
    if (!doc) throw notFound('form', String(req.params.id), 'id');
    res.json(renderForm(doc));
  },
});

/** Routes under `/v1/forms` (mounted there by src/api/app.ts). */
export function formsRouter(): Router {
  return operationsRouter('/v1/forms', [createForm, listForms, retrieveForm]);
}
