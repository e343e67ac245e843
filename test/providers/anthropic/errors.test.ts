import { expect } from 'chai';
import { fromErrorBody, fromErrorEvent } from '../../../providers/anthropic/errors.js';
import { ERROR_NOT_FOUND } from './fixtures.js';

const bytes = (s: string) => new TextEncoder().encode(s);

describe('anthropic errors', () => {
  it('keeps the status, message and error type of an error body, provider set', () => {
    const e = fromErrorBody(404, bytes(JSON.stringify(ERROR_NOT_FOUND)), 'anthropic');
    expect(e.status).to.equal(404);
    expect(e.toEnvelope()).to.deep.equal({
      error: { message: 'The requested resource could not be found.', type: 'not_found_error', param: null, code: null },
      provider: 'anthropic',
    });
  });

  it('quotes the start of a body that is not the error format', () => {
    const e = fromErrorBody(503, bytes('<html>upstream connect error</html>'), 'anthropic');
    expect(e.status).to.equal(503);
    expect(e.message).to.equal('provider anthropic answered 503: <html>upstream connect error</html>');
    expect(e.type).to.equal('api_error');
    expect(fromErrorBody(500, bytes(''), 'anthropic').message).to.equal('provider anthropic answered 500');
  });

  it('gives a stream error event the status the API uses for its type', () => {
    const cases: [string, number][] = [
      ['overloaded_error', 529], ['rate_limit_error', 429], ['api_error', 500], ['invalid_request_error', 400],
      ['authentication_error', 401], ['permission_error', 403], ['not_found_error', 404], ['request_too_large', 413],
      ['billing_error', 402], ['timeout_error', 504], ['something_new', 500],
    ];
    for (const [type, status] of cases) {
      const e = fromErrorEvent({ type, message: 'm' }, 'anthropic');
      expect([e.status, e.type, e.message, e.provider]).to.deep.equal([status, type, 'm', 'anthropic']);
    }
    expect(fromErrorEvent(undefined, 'anthropic').status).to.equal(500);
  });
});
