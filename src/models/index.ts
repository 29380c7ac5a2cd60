/**
 * Mongoose models: the resources and the read model that GETs and lists answer from.
 *
 * Rules that keep them correct on FerretDB 1.x as well as MongoDB (DESIGN.md section 3):
 * - `_id` is our prefixed string id, time-ordered, so `sort({_id:-1})` is "newest first".
 * - Free-form user JSON (`metadata`, `context`, rendered event payloads) is stored as a JSON string,
 *   because FerretDB refuses field names containing `.` or starting with `$`.
 * - No TTL indexes (FerretDB refuses them): expiry is a field compared in queries plus a sweep.
 * - Uniqueness comes from unique indexes and duplicate-key errors (`isDuplicateKey`), never read-then-write.
 * - Times are numbers: `created` in unix seconds (the API's unit), other `*_ms` fields in milliseconds.
 */
import mongoose, { Schema, InferSchemaType } from 'mongoose';

const base = { versionKey: false as const, _id: false as const };

const orgSchema = new Schema(
  { _id: { type: String, required: true }, name: { type: String, required: true }, demo: { type: Boolean, default: false }, created: { type: Number, required: true } },
  base,
);
export const Org = mongoose.model('Org', orgSchema, 'orgs');

const apiKeySchema = new Schema(
  {
    _id: { type: String, required: true },
    org_id: { type: String, required: true, index: true },
    livemode: { type: Boolean, required: true },
    kind: { type: String, enum: ['secret', 'restricted', 'publishable'], required: true },
    scopes: { type: [String], default: [] },
    /** sha256 hex of the full key; the key itself is never stored. */
    hash: { type: String, required: true, unique: true },
    /** The key's prefix and last four characters, for display (`svc_sk_test_…a1b2`). */
    redacted: { type: String, required: true },
    name: { type: String },
    created: { type: Number, required: true },
    revoked: { type: Number, default: null },
  },
  base,
);
export const ApiKey = mongoose.model('ApiKey', apiKeySchema, 'api_keys');

const agentSchema = new Schema(
  {
    _id: { type: String, required: true },
    org_id: { type: String, required: true },
    livemode: { type: Boolean, required: true },
    name: { type: String, required: true },
    instructions: { type: String, required: true },
    first_message: { type: String, default: null },
    model: { type: String, default: null },
    transfer_to: { type: String, default: null },
    metadata_json: { type: String, default: '{}' },
    created: { type: Number, required: true },
  },
  base,
);
agentSchema.index({ org_id: 1, livemode: 1, _id: -1 });
export const Agent = mongoose.model('Agent', agentSchema, 'agents');

const callSchema = new Schema(
  {
    _id: { type: String, required: true },
    org_id: { type: String, required: true },
    livemode: { type: Boolean, required: true },
    agent_id: { type: String, required: true },
    to: { type: String, required: true },
    from: { type: String, default: null },
    status: { type: String, required: true },
    end_reason: { type: String, default: null },
    transferred_to: { type: String, default: null },
    simulated: { type: Boolean, required: true },
    max_duration_seconds: { type: Number, required: true },
    context_json: { type: String, default: '{}' },
    metadata_json: { type: String, default: '{}' },
    error_message: { type: String, default: null },
    provider_call_sid: { type: String, default: null },
    created: { type: Number, required: true },
    answered_ms: { type: Number, default: null },
    ended_ms: { type: Number, default: null },
  },
  base,
);
callSchema.index({ org_id: 1, livemode: 1, _id: -1 });
export const Call = mongoose.model('Call', callSchema, 'calls');

const callTurnSchema = new Schema(
  {
    /** `<call id>:<seq, 6 digits>`: a retried write of the same turn is a duplicate, not a second turn. */
    _id: { type: String, required: true },
    call_id: { type: String, required: true, index: true },
    seq: { type: Number, required: true },
    role: { type: String, enum: ['assistant', 'caller', 'tool'], required: true },
    text: { type: String, required: true },
    tool_name: { type: String, default: null },
    tool_arguments_json: { type: String, default: null },
    at_ms: { type: Number, required: true },
  },
  base,
);
export const CallTurn = mongoose.model('CallTurn', callTurnSchema, 'call_turns');

const eventSchema = new Schema(
  {
    _id: { type: String, required: true },
    org_id: { type: String, required: true },
    livemode: { type: Boolean, required: true },
    type: { type: String, required: true },
    created: { type: Number, required: true },
    /** The id of the object the event is about (`data.object.id`). */
    object_id: { type: String, default: null },
    /** The whole event object as JSON, rendered once at creation and never changed. */
    payload_json: { type: String, required: true },
  },
  base,
);
eventSchema.index({ org_id: 1, livemode: 1, _id: -1 });
eventSchema.index({ org_id: 1, livemode: 1, type: 1, _id: -1 });
export const Event = mongoose.model('Event', eventSchema, 'events');

const idempotencySchema = new Schema(
  {
    /** sha256 hex of `<org>|<livemode>|<Idempotency-Key>`. */
    _id: { type: String, required: true },
    org_id: { type: String, required: true },
    livemode: { type: Boolean, required: true },
    key_id: { type: String, required: true },
    method: { type: String, required: true },
    path: { type: String, required: true },
    /** sha256 hex of method, path and the canonical JSON body. */
    fingerprint: { type: String, required: true },
    /** The id the first execution chose for what it creates; a retry reuses it (no second call). */
    resource_id: { type: String, required: true },
    state: { type: String, enum: ['in_progress', 'completed'], required: true },
    /** While `in_progress`, the time (ms) until which the executing request holds the record. */
    locked_until_ms: { type: Number, required: true },
    status_code: { type: Number, default: null },
    response_json: { type: String, default: null },
    created_ms: { type: Number, required: true },
    expires_ms: { type: Number, required: true, index: true },
  },
  base,
);
export const IdempotencyRecord = mongoose.model('IdempotencyRecord', idempotencySchema, 'idempotency_keys');

export type OrgDoc = InferSchemaType<typeof orgSchema>;
export type ApiKeyDoc = InferSchemaType<typeof apiKeySchema>;
export type AgentDoc = InferSchemaType<typeof agentSchema>;
export type CallDoc = InferSchemaType<typeof callSchema>;
export type CallTurnDoc = InferSchemaType<typeof callTurnSchema>;
export type EventDoc = InferSchemaType<typeof eventSchema>;

/** True for MongoDB's (and FerretDB's) E11000 duplicate key error. */
export function isDuplicateKey(err: unknown): boolean {
  return typeof err === 'object' && err !== null && (err as { code?: unknown }).code === 11000;
}

/** Inserts `doc`; a duplicate `_id` or unique key is not an error (returns false). For idempotent writes. */
export async function insertIfAbsent(model: mongoose.Model<any>, doc: Record<string, unknown>): Promise<boolean> {
  try {
    await model.collection.insertOne(doc as any);
    return true;
  } catch (err) {
    if (isDuplicateKey(err)) return false;
    throw err;
  }
}

/**
 * Connects mongoose to `uri` and creates the indexes (`autoIndex` is off so that no request waits on it).
 * Resolves once every model's indexes exist.
 */
export async function connectStore(uri: string): Promise<typeof mongoose> {
  mongoose.set('autoIndex', false);
  mongoose.set('strictQuery', true);
  await mongoose.connect(uri, { serverSelectionTimeoutMS: 10_000 });
  for (const model of Object.values(mongoose.models)) await model.createIndexes();
  return mongoose;
}

/** Closes the mongoose connection. */
export async function disconnectStore(): Promise<void> {
  await mongoose.disconnect();
}
