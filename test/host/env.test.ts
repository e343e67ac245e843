/** The server's settings from the environment: connection limits, their defaults and their rules. */
import { expect } from 'chai';
import { listenFromEnv } from '../../host/env.js';

describe('listenFromEnv', () => {
  it('has the documented defaults', () => {
    expect(listenFromEnv({})).to.deep.equal({
      port: 8787, host: '127.0.0.1', shutdownTimeoutMs: 30_000,
      headersTimeoutMs: 20_000, bodyTimeoutMs: 60_000, maxHeaderBytes: 16_384, maxConnections: 4096,
    });
  });

  it('reads each connection limit', () => {
    const settings = listenFromEnv({
      GW_HEADERS_TIMEOUT_MS: '5000', GW_REQUEST_BODY_TIMEOUT_MS: '9000', GW_MAX_HEADER_BYTES: '65536', GW_MAX_CONNECTIONS: '100',
    });
    expect(settings).to.include({ headersTimeoutMs: 5000, bodyTimeoutMs: 9000, maxHeaderBytes: 65536, maxConnections: 100 });
  });

  for (const name of ['GW_HEADERS_TIMEOUT_MS', 'GW_REQUEST_BODY_TIMEOUT_MS', 'GW_MAX_HEADER_BYTES', 'GW_MAX_CONNECTIONS']) {
    it(`refuses a ${name} that is not a positive integer, naming it`, () => {
      for (const bad of ['0', '-1', '1.5', 'lots']) {
        expect(() => listenFromEnv({ [name]: bad })).to.throw(`${name} must be a positive integer, got "${bad}"`);
      }
    });
  }

  it('refuses a headers timeout longer than the body timeout (the body time counts from the first byte)', () => {
    expect(() => listenFromEnv({ GW_HEADERS_TIMEOUT_MS: '30000', GW_REQUEST_BODY_TIMEOUT_MS: '10000' }))
      .to.throw('GW_HEADERS_TIMEOUT_MS (30000) must not exceed GW_REQUEST_BODY_TIMEOUT_MS (10000)');
  });
});
