/**
 * Console sign-in attempts (src/services/console-signin.ts is their only writer): one document per attempt
 * and per bucket it counts in (`ip:…`, `email:…`, `pair:…`: hashes, never the email itself), inserted
 * before the password is checked so that concurrent attempts count each other, deleted again when the
 * attempt signed in or was refused without a check; what stays is the failures. A `known:…` document
 * says an email signed in from an address (kept 30 days). Pruned past `expires_ms` by that module
 * (FerretDB has no TTL indexes).
 */
import mongoose, { Schema } from 'mongoose';
import { schemaOptions as base } from './store';

const consoleSigninAttemptSchema = new Schema(
  {
    /** `<bucket>|<ms since the epoch, 15 digits>|<random>`: ids sort by time within a bucket. */
    _id: { type: String, required: true },
    /** The bucket counted in (`ip:<hash>`, `email:<hash>`, `pair:<hash>`), or `known:<hash>`. */
    bucket: { type: String, required: true },
    at_ms: { type: Number, required: true },
    /** When it stops counting (ms); pruned after it. */
    expires_ms: { type: Number, required: true },
  },
  base,
);
/** A bucket's attempts, in order (the count and the latest failure before an attempt). */
consoleSigninAttemptSchema.index({ bucket: 1, _id: 1 });
/** The prune of documents past their time. */
consoleSigninAttemptSchema.index({ expires_ms: 1 });
export const ConsoleSigninAttempt = mongoose.model(
  'ConsoleSigninAttempt',
  consoleSigninAttemptSchema,
  'console_signin_attempts',
);
