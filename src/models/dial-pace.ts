/**
 * The dialing pacer's rows (src/services/dial-pace.ts is their only writer):
 *
 * - `dial_pace_ticks`: one per turn taken, `_id` = `<account SID>:<instant, ms since the epoch>`, the
 *   instants multiples of the account's tick length. A turn is taken by inserting against
 *   the unique `_id`, atomic on MongoDB and on FerretDB 1.x alike (whose updates are read-modify-writes that
 *   lose concurrent `$inc`s), so every process of the service shares one exact schedule per account.
 * - `dial_pace_holds`: which turn a dial holds, `_id` = the dial (`call:<call id>`, `leg:<call id>:<n>`),
 *   written by that dial's activity alone (one writer), so a retried activity finds its turn again.
 * - `dial_pace_heads`: per account, the latest turn a process saw taken: a hint where the next free turn
 *   may be (a lost update only costs a few duplicate-key skips, never a second owner of a turn).
 *
 * Past turns and holds are pruned by that module (FerretDB has no TTL indexes).
 */
import mongoose, { Schema } from 'mongoose';
import { schemaOptions as base } from './store';

const dialPaceTickSchema = new Schema(
  {
    /** `<account SID>:<instant ms>`, e.g. `AC…:1795860001100`. */
    _id: { type: String, required: true },
    /** The dial holding the turn (a `dial_pace_holds` id). */
    holder: { type: String, required: true },
    /** The turn's instant, ms since the epoch. */
    at_ms: { type: Number, required: true },
    /** When the row may be pruned (ms): an hour after the turn. */
    expires_ms: { type: Number, required: true },
  },
  base,
);
dialPaceTickSchema.index({ expires_ms: 1 });
export const DialPaceTick = mongoose.model('DialPaceTick', dialPaceTickSchema, 'dial_pace_ticks');

const dialPaceHoldSchema = new Schema(
  {
    /** The dial: `call:<call id>` (a call's own dial) or `leg:<call id>:<attempt>` (a warm transfer's leg). */
    _id: { type: String, required: true },
    /** The account the turn is in (SID) and its tick id (`dial_pace_ticks`). */
    account_sid: { type: String, required: true },
    tick_id: { type: String, required: true },
    /** The turn's instant, ms since the epoch. */
    at_ms: { type: Number, required: true },
    /** When the row may be pruned (ms): a day after the turn. */
    expires_ms: { type: Number, required: true },
  },
  base,
);
dialPaceHoldSchema.index({ expires_ms: 1 });
export const DialPaceHold = mongoose.model('DialPaceHold', dialPaceHoldSchema, 'dial_pace_holds');

const dialPaceHeadSchema = new Schema(
  {
    /** The account SID. */
    _id: { type: String, required: true },
    /** The latest turn seen taken, epoch ms (a hint, raised with `$max`). */
    at_ms: { type: Number, required: true },
  },
  base,
);
export const DialPaceHead = mongoose.model('DialPaceHead', dialPaceHeadSchema, 'dial_pace_heads');
