/**
 * Staff users: creation, listing, disable and password reset (svcctl, `npm start`'s
 * seed, the console), and password hashing with scrypt from `node:crypto` (RFC 7914): a 16-byte random
 * salt per user, the parameters kept in the hash string (`scrypt$N$r$p$salt$hash`), so they can be raised
 * later without breaking stored hashes; compared with `timingSafeEqual`.
 */
import crypto from 'node:crypto';
import { promisify } from 'node:util';
import { Org } from '../models/orgs';
import { isDuplicateKey } from '../models/store';
import { ConsoleSession, renderUser, User, USER_ROLES, type UserDoc, type UserRole } from '../models/users';
import { newId } from '../shared/ids';

const scrypt = promisify(crypto.scrypt) as (
  password: string,
  salt: Buffer,
  keylen: number,
  options: crypto.ScryptOptions,
) => Promise<Buffer>;

/** scrypt cost parameters for new hashes (OWASP's minimum for scrypt: N=2^17 r=8 p=1 is slower; 2^15 keeps sign-in near 50 ms). */
const SCRYPT = { N: 32768, r: 8, p: 1, keylen: 64 };
/** Passwords shorter than this are refused. */
export const MIN_PASSWORD_LENGTH = 10;

/** Hashes `password`: `scrypt$<N>$<r>$<p>$<salt b64url>$<hash b64url>`. */
export async function hashPassword(password: string): Promise<string> {
  const salt = crypto.randomBytes(16);
  const { N, r, p, keylen } = SCRYPT;
  const hash = await scrypt(password, salt, keylen, { N, r, p, maxmem: 256 * N * r });
  return `scrypt$${N}$${r}$${p}$${salt.toString('base64url')}$${hash.toString('base64url')}`;
}

/** True when `password` matches `stored` (a `hashPassword` string); false for a malformed one. Constant-time compare. */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const parts = stored.split('$');
  if (parts.length !== 6 || parts[0] !== 'scrypt') return false;
  const [N, r, p] = parts.slice(1, 4).map(Number);
  const salt = Buffer.from(parts[4], 'base64url');
  const expected = Buffer.from(parts[5], 'base64url');
  if (![N, r, p].every((n) => Number.isInteger(n) && n > 0) || expected.length === 0) return false;
  const actual = await scrypt(password, salt, expected.length, { N, r, p, maxmem: 256 * N * r });
  return crypto.timingSafeEqual(actual, expected);
}

/** A hash of a random password, checked against when the email is unknown, so timing says nothing. */
let decoy: Promise<string> | null = null;
/** Spends the same scrypt work as a real check; always false. */
export async function decoyVerify(password: string): Promise<false> {
  decoy ??= hashPassword(crypto.randomBytes(16).toString('hex'));
  await verifyPassword(password, await decoy);
  return false;
}

/** A generated password: 20 characters of base64url (120 bits). */
export function generatePassword(): string {
  return crypto.randomBytes(15).toString('base64url');
}

/** A user-input problem (svcctl prints it; the console answers 400). */
export class UserInputError extends Error {}

function checkPassword(password: string): void {
  if (password.length < MIN_PASSWORD_LENGTH)
    throw new UserInputError(`The password must have at least ${MIN_PASSWORD_LENGTH} characters.`);
}

/** Lower-cased, trimmed email; throws when it does not look like one. */
export function normalizeEmail(email: string): string {
  const e = email.trim().toLowerCase();
  if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(e) || e.length > 254)
    throw new UserInputError(`Invalid email address: ${email}`);
  return e;
}

/**
 * Creates a staff user (`svcctl users create`, the seed). With no `password`, one is generated and
 * returned once (`password` in the answer).
 * @throws UserInputError for an unknown organization or role, a bad email, a short password, or an
 *   email already taken (unique index)
 */
export async function createUser(input: { orgId: string; email: string; role: string; password?: string }) {
  if (!(USER_ROLES as readonly string[]).includes(input.role))
    throw new UserInputError(`Unknown role '${input.role}'. Roles: ${USER_ROLES.join(', ')}.`);
  const email = normalizeEmail(input.email);
  if (!(await Org.exists({ _id: input.orgId }))) throw new UserInputError(`No such organization: ${input.orgId}`);
  const generated = input.password === undefined;
  const password = input.password ?? generatePassword();
  checkPassword(password);
  const now = Math.floor(Date.now() / 1000);
  const doc: UserDoc = {
    _id: newId('usr'),
    org_id: input.orgId,
    email,
    password_hash: await hashPassword(password),
    role: input.role as UserRole,
    disabled: false,
    created: now,
    updated: now,
  };
  try {
    await User.create(doc);
  } catch (err) {
    if (isDuplicateKey(err)) throw new UserInputError(`A user with the email ${email} already exists.`);
    throw err;
  }
  return { ...renderUser(doc), ...(generated ? { password } : {}) };
}

/** The organization's users, newest first. */
export async function listUsers(orgId: string) {
  const docs = (await User.find({ org_id: orgId }).sort({ _id: -1 }).lean()) as UserDoc[];
  return docs.map(renderUser);
}

/** Ends every console session of a user (by the indexed `user_id`). */
export async function endUserSessions(userId: string): Promise<number> {
  return (await ConsoleSession.deleteMany({ user_id: userId })).deletedCount ?? 0;
}

/**
 * Disables a user and ends their sessions ("sessions … end … on user disable").
 * @throws UserInputError when there is no such user
 */
export async function disableUser(userId: string) {
  const doc = (await User.findOneAndUpdate(
    { _id: userId },
    { $set: { disabled: true, updated: Math.floor(Date.now() / 1000) } },
    { returnDocument: 'after' },
  ).lean()) as UserDoc | null;
  if (!doc) throw new UserInputError(`No such user: ${userId}`);
  await endUserSessions(userId);
  return renderUser(doc);
}

/**
 * Sets a new password (generated and returned once when none is given) and ends the user's sessions.
 * @throws UserInputError when there is no such user or the password is too short
 */
export async function resetPassword(userId: string, password?: string) {
  const generated = password === undefined;
  const next = password ?? generatePassword();
  checkPassword(next);
  const doc = (await User.findOneAndUpdate(
    { _id: userId },
    { $set: { password_hash: await hashPassword(next), updated: Math.floor(Date.now() / 1000) } },
    { returnDocument: 'after' },
  ).lean()) as UserDoc | null;
  if (!doc) throw new UserInputError(`No such user: ${userId}`);
  await endUserSessions(userId);
  return { ...renderUser(doc), ...(generated ? { password: next } : {}) };
}
