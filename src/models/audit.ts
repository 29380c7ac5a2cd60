/**
 * Audit events (`aud_…`, object `audit_event`): who (an API key or a staff user) did
 * what (method and route template, the ids it named and created), when, from where (IP) and with which
 * outcome, for every state-changing API request, every console action and every read of a recording or a
 * transcript. Written under an id chosen before the write (src/services/audit.ts): an API request's
 * entry is written before the request changes anything (outcome status 0) and its outcome once, before
 * the answer leaves; nothing else updates it and no route changes or deletes one. They leave only by their own retention
 * (`AUDIT_RETENTION_DAYS`, the `audit-retention` schedule). No request body is kept (it may hold
 * personal data).
 */
import mongoose, { Schema, type InferSchemaType } from 'mongoose';
import { z } from 'zod';
import { schemaOptions as base, type WithId } from './store';
import { apiObject, unix } from './wire';

/** Who acted: an API key (`key_…`) or a staff user of the console (`usr_…`). */
/** Who can act: an API key, a staff user, or a signed recording link (its recording's id). */
export const AUDIT_ACTOR_TYPES = ['api_key', 'user', 'signed_link'] as const;
export type AuditActorType = (typeof AUDIT_ACTOR_TYPES)[number];

const auditEventSchema = new Schema(
  {
    _id: { type: String, required: true },
    org_id: { type: String, required: true },
    livemode: { type: Boolean, required: true },
    /** The actor (top-level fields: the embedded store serves no index on a dotted path). */
    actor_type: { type: String, enum: AUDIT_ACTOR_TYPES, required: true },
    actor_id: { type: String, required: true },
    /** `METHOD /route/{template}` (`POST /v1/calls`), never the raw URL. */
    action: { type: String, required: true },
    /** Ids named in the path and the id of the object the answer returned, in that order, distinct. */
    object_ids: { type: [String], default: [] },
    request_id: { type: String, default: null },
    ip: { type: String, default: null },
    outcome: {
      status: { type: Number, required: true },
      error_code: { type: String, default: null },
    },
    created: { type: Number, required: true },
  },
  base,
);
// The list (newest first) and each of its filters: an equality on the organization, the mode and the
// filter's field, then `_id` (time-ordered) for the page.
auditEventSchema.index({ org_id: 1, livemode: 1, _id: -1 });
auditEventSchema.index({ org_id: 1, livemode: 1, action: 1, _id: -1 });
auditEventSchema.index({ org_id: 1, livemode: 1, actor_id: 1, _id: -1 });
auditEventSchema.index({ org_id: 1, livemode: 1, object_ids: 1, _id: -1 });
export const AuditEvent = mongoose.model('AuditEvent', auditEventSchema, 'audit_events');

export type AuditEventDoc = InferSchemaType<typeof auditEventSchema>;

/** The `audit_event` object (the OpenAPI component `AuditEvent`). */
export const AuditEventObject = apiObject(
  'AuditEvent',
  'One entry of the audit log: who did what, to which objects, from where, with which outcome. Entries cannot be changed or deleted; they are kept `AUDIT_RETENTION_DAYS` days.',
  z.object({
    id: z.string().meta({ examples: ['aud_01jd5x2v7c0000000000000000'] }),
    object: z.literal('audit_event'),
    livemode: z.boolean(),
    actor: z
      .object({
        type: z.enum(AUDIT_ACTOR_TYPES),
        id: z
          .string()
          .describe(
            'The API key (`key_…`), the staff user (`usr_…`), or for `signed_link` the recording (`rcd_…`) whose signed audio link was opened.',
          ),
      })
      .describe('Who acted.'),
    action: z
      .string()
      .describe('The method and the route template, e.g. `POST /v1/calls`, `GET /v1/calls/{id}/transcript`.'),
    object_ids: z
      .array(z.string())
      .describe("The ids in the request's path, then the id of the object the answer returned."),
    request_id: z.string().nullable().describe('The `Request-Id` of the request.'),
    ip: z.string().nullable().describe("The client's address (behind a proxy: as `TRUST_PROXY` says)."),
    outcome: z
      .object({
        status: z
          .number()
          .int()
          .describe(
            'The HTTP status answered; 0 when the process stopped after the request began and before it answered (the change may have been made).',
          ),
        error_code: z.string().nullable().describe("The error's `code` when the request was refused."),
      })
      .describe('How the request ended.'),
    created: unix,
  }),
);

/** A stored entry as the API answers it. */
export function renderAuditEvent(doc: WithId<AuditEventDoc>): z.output<typeof AuditEventObject> {
  return {
    id: doc._id,
    object: 'audit_event',
    livemode: doc.livemode,
    actor: { type: doc.actor_type as AuditActorType, id: doc.actor_id },
    action: doc.action,
    object_ids: [...(doc.object_ids ?? [])],
    request_id: doc.request_id ?? null,
    ip: doc.ip ?? null,
    outcome: { status: doc.outcome!.status, error_code: doc.outcome!.error_code ?? null },
    created: doc.created,
  };
}
