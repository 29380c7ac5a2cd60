/**
 * The response check of the test suite (test/support/response-schemas.ts) on its own: which operation an
 * answer belongs to, what it checks and what it only counts, and what a mismatch says.
 */
import { expect } from 'chai';
import type { Client } from '@temporalio/client';
import { createApp } from '../../src/api/app';
import { documentedOperation, responseChecks, responseMismatch } from '../support/response-schemas';

describe('the response check against the OpenAPI document', () => {
  before(() => void createApp({ temporal: {} as Client }));
  const json = 'application/json; charset=utf-8';

  it('finds the operation by method and path template, a literal segment before a parameter', () => {
    expect(documentedOperation('get', '/v1/calls/call_1?expand=x')).to.deep.include({
      method: 'GET',
      template: '/v1/calls/{id}',
    });
    expect(documentedOperation('POST', '/v1/events/evt_1/redeliver')?.template).to.equal('/v1/events/{id}/redeliver');
    expect(documentedOperation('GET', '/console/api/session')).to.equal(undefined);
    expect(documentedOperation('DELETE', '/v1/events')).to.equal(undefined);
  });

  it('names the operation, the status, the JSON pointer and the message of a mismatch', () => {
    const wrong = responseMismatch('GET', '/v1/events', 200, json, JSON.stringify({ object: 'list', data: 3 }));
    expect(wrong).to.contain('GET /v1/events (listEvents) answered 200').and.contain('/data: must be array');
    const error = { error: { type: 'invalid_request_error', code: 'no_such_code', message: 'm', request_id: 'req_1' } };
    expect(responseMismatch('GET', '/v1/calls/call_1', 404, json, JSON.stringify(error))).to.contain('/error/code');
    expect(
      responseMismatch(
        'GET',
        '/v1/calls/call_1',
        404,
        json,
        JSON.stringify({ ...error, error: { ...error.error, code: 'resource_missing' } }),
      ),
    ).to.equal(null);
  });

  it('counts what it does not check: bodies that are not JSON, and paths the document leaves out', () => {
    const before = {
      notJson: responseChecks.notJson,
      undocumented: responseChecks.undocumented.get('GET /console') ?? 0,
    };
    expect(responseMismatch('GET', '/docs', 200, 'text/html', '<!doctype html>')).to.equal(null);
    expect(responseMismatch('GET', '/console', 200, json, '{"x":1}')).to.equal(null);
    expect(responseChecks.notJson).to.equal(before.notJson + 1);
    expect(responseChecks.undocumented.get('GET /console')).to.equal(before.undocumented + 1);
  });
});
