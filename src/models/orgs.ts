/**
 * Organizations and API keys (DESIGN.md section 5). Written by `svcctl` and `npm start`'s seed
 * (src/keys.ts); read by authentication. Keys are stored as SHA-256 hashes, never in clear.
 */
import mongoose, { Schema, type InferSchemaType } from 'mongoose';
import { schemaOptions as base } from './store';

const orgSchema = new Schema(
  {
    _id: { type: String, required: true },
    name: { type: String, required: true },
    demo: { type: Boolean, default: false },
    created: { type: Number, required: true },
  },
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

export type OrgDoc = InferSchemaType<typeof orgSchema>;
export type ApiKeyDoc = InferSchemaType<typeof apiKeySchema>;
