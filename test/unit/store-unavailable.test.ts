/**
 * `isStoreUnavailable` (src/models/store.ts) on FerretDB's answers when its PostgreSQL backend is down
 * (`npm run stack:cluster`): a 503, not a 500; any other InternalError stays an error of ours.
 */
import { expect } from 'chai';
import mongoose from 'mongoose';
import { isStoreUnavailable } from '../../src/models/store';

const ferretError = (errmsg: string, code = 1) => new mongoose.mongo.MongoServerError({ ok: 0, code, errmsg });

describe('isStoreUnavailable: FerretDB with its PostgreSQL backend down', () => {
  it('counts the backend refusing connections, closing them, shutting down or starting up', () => {
    for (const msg of [
      '[msg_insert.go:168 handler.(*Handler).MsgInsert] failed to connect to `user=ferretdb database=ferretdb`: 127.0.0.1:27432 (127.0.0.1): dial error: dial tcp 127.0.0.1:27432: connect: connection refused',
      '[msg_find.go:80] FATAL: terminating connection due to administrator command (SQLSTATE 57P01)',
      '[msg_find.go:80] FATAL: the database system is starting up (SQLSTATE 57P03)',
      '[msg_update.go:90] read tcp 127.0.0.1:5000->127.0.0.1:27432: unexpected EOF',
    ])
      expect(isStoreUnavailable(ferretError(msg)), msg).to.equal(true);
  });

  it('leaves other errors alone: another InternalError, the same words under another code', () => {
    expect(isStoreUnavailable(ferretError('[msg_find.go:80] unsupported operator $foo'))).to.equal(false);
    expect(isStoreUnavailable(ferretError('failed to connect to `user=x`', 2))).to.equal(false);
    expect(isStoreUnavailable(new Error('failed to connect to `user=x`'))).to.equal(false);
  });
});
