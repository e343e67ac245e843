/** The server's settings from the environment: connection limits, their defaults and their rules. */
import { expect } from 'chai';
import { listenFromEnv, MAX_WORKERS, workersFromEnv } from '../../host/env.js';

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

describe('workersFromEnv', () => {
  it('is 1 (no cluster) by default, a given count, or the CPUs for "auto"', () => {
    expect(workersFromEnv({}, 8)).to.equal(1);
    expect(workersFromEnv({ GW_WORKERS: '' }, 8)).to.equal(1);
    expect(workersFromEnv({ GW_WORKERS: '3' }, 8)).to.equal(3);
    expect(workersFromEnv({ GW_WORKERS: 'auto' }, 8)).to.equal(8);
    expect(workersFromEnv({ GW_WORKERS: 'auto' }, 1)).to.equal(1);
    expect(workersFromEnv({ GW_WORKERS: 'auto' }, 1000)).to.equal(MAX_WORKERS);
  });

  it('refuses anything else, naming the variable and the rule', () => {
    for (const bad of ['0', '-1', 'abc', '1.5', '1e2', ' 2', '0x2', 'AUTO', String(MAX_WORKERS + 1), '99999999999999999999']) {
      expect(() => workersFromEnv({ GW_WORKERS: bad }, 8)).to.throw(`GW_WORKERS must be "auto" or an integer 1..${MAX_WORKERS}, got "${bad}"`);
    }
  });
});
