/**
 * Staff users of an organization and their console sessions (DESIGN.md section 10:
 * `usr_…`, object `user`, console only).
 *
 * Who writes what (DESIGN.md section 3): users are written by `svcctl users …` and `npm start`'s seed
 * (src/services/users.ts); sessions by the console's sign-in, mode switch, sign-out and the idle refresh
 * (src/services/console-sessions.ts), deleted by sign-out, expiry, user disable and password reset.
 */
import mongoose, { Schema, type InferSchemaType } from 'mongoose';
import { schemaOptions as base, type WithId } from './store';

/** The roles of a staff user: admin everything, agent inbox/calls/contacts, viewer read only. */
export const USER_ROLES = ['admin', 'agent', 'viewer'] as const;
export type UserRole = (typeof USER_ROLES)[number];

const userSchema = new Schema(
  {
    _id: { type: String, required: true },
    org_id: { type: String, required: true },
    /** Lower-cased; unique across the store (one sign-in address, one organization). */
    email: { type: String, required: true },
    /** `scrypt$N$r$p$<salt b64url>$<hash b64url>` (src/services/users.ts `hashPassword`). */
    password_hash: { type: String, required: true },
    role: { type: String, enum: USER_ROLES, required: true },
    disabled: { type: Boolean, default: false },
    created: { type: Number, required: true },
    updated: { type: Number, required: true },
  },
  base,
);
/** Sign-in finds the user by email; uniqueness by this index (a duplicate-key error on a second user). */
userSchema.index({ email: 1 }, { unique: true });
/** An organization's users, newest first (`svcctl users list`, `GET /console/api/users`). */
userSchema.index({ org_id: 1, _id: -1 });
export const User = mongoose.model('User', userSchema, 'users');
export type UserDoc = WithId<InferSchemaType<typeof userSchema>>;

const consoleSessionSchema = new Schema(
  {
    /** SHA-256 hex of the session token (the cookie's value); the token itself is never stored. */
    _id: { type: String, required: true },
    user_id: { type: String, required: true },
    org_id: { type: String, required: true },
    mode: { type: String, enum: ['test', 'live'], required: true },
    csrf_token: { type: String, required: true },
    /** Last use (ms since the epoch), refreshed at most once a minute; idle past 12 h: expired. */
    last_seen: { type: Number, required: true },
    /** Unix seconds. */
    created: { type: Number, required: true },
  },
  base,
);
/** A user's sessions, ended together on disable and password reset. */
consoleSessionSchema.index({ user_id: 1 });
export const ConsoleSession = mongoose.model('ConsoleSession', consoleSessionSchema, 'console_sessions');
export type ConsoleSessionDoc = WithId<InferSchemaType<typeof consoleSessionSchema>>;

/** The `user` object (console and svcctl; not part of the public API document). */
export function renderUser(doc: UserDoc) {
  return {
    id: doc._id,
    object: 'user' as const,
    org_id: doc.org_id,
    email: doc.email,
    role: doc.role as UserRole,
    disabled: doc.disabled ?? false,
    created: doc.created,
    updated: doc.updated,
  };
}
