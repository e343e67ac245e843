/** route.proxy's path rules: what may be appended to a provider's base URL, and what may not. */
import { expect } from 'chai';
import { GatewayError } from '../../../../core/index.js';
import { pathProblem, proxiedUrl } from '../../../../plugins/routing/proxy/upstream-url.js';

const BASE = { url: 'http://127.0.0.1:9/v1', headers: {} };

function refusal(rest: string): GatewayError {
  try {
    proxiedUrl(BASE, rest, new URLSearchParams());
  } catch (e) {
    return e as GatewayError;
  }
  throw new Error(`${rest} was accepted`);
}

describe('route.proxy: upstream URLs', () => {
  it('appends the path below /v1 and the query to the base', () => {
    expect(proxiedUrl(BASE, 'vector_stores/vs_1/files', new URLSearchParams('limit=2&order=asc')))
      .to.equal('http://127.0.0.1:9/v1/vector_stores/vs_1/files?limit=2&order=asc');
    expect(proxiedUrl({ url: 'http://127.0.0.1:9/openai/v1/', headers: {} }, 'models', new URLSearchParams()))
      .to.equal('http://127.0.0.1:9/openai/v1/models');
  });

  it('adds default query parameters only when the client sent none of that name', () => {
    const base = { ...BASE, defaultQuery: { 'api-version': '2024-10-21' } };
    expect(proxiedUrl(base, 'models', new URLSearchParams())).to.equal('http://127.0.0.1:9/v1/models?api-version=2024-10-21');
    expect(proxiedUrl(base, 'models', new URLSearchParams('api-version=preview'))).to.equal('http://127.0.0.1:9/v1/models?api-version=preview');
  });

  it('keeps harmless encodings as they are (an id with a colon, an encoded space)', () => {
    expect(proxiedUrl(BASE, 'models/ft:gpt-4o:org:x/a%20b', new URLSearchParams())).to.equal('http://127.0.0.1:9/v1/models/ft:gpt-4o:org:x/a%20b');
    expect(pathProblem('files/file-abc/content')).to.equal(undefined);
  });

  const escapes: Array<[string, RegExp]> = [
    ['../admin', /"\." or "\.\."/],
    ['a/../../etc/passwd', /"\." or "\.\."/],
    ['%2e%2e/secret', /"\." or "\.\."/],
    ['%2E./secret', /"\." or "\.\."/],
    ['./models', /"\." or "\.\."/],
    ['a%2f..%2fb', /encoded slash/],
    ['a%5c..%5cb', /encoded slash or backslash/],
    ['a\\..\\b', /not allowed/],
    ['/evil.example/x', /empty segment/],
    ['http://evil.example/x', /empty segment/],
    ['models//x', /empty segment/],
    ['', /no path/],
    ['a%zz', /percent-encoding/],
    ['a%00b', /control character/],
    ['a b', /not allowed/],
    ['caf\u00e9', /not allowed/],
    ['a?x=1', /not allowed/],
    ['a#frag', /not allowed/],
  ];
  for (const [rest, rule] of escapes) {
    it(`refuses /v1/${rest} with a 400 naming the path`, () => {
      const error = refusal(rest);
      expect(error).to.be.instanceOf(GatewayError);
      expect(error.status).to.equal(400);
      const envelope = error.toEnvelope() as { error: { param: string; code: string; message: string } };
      expect(envelope.error.param).to.equal('path');
      expect(envelope.error.code).to.equal('invalid_path');
      expect(envelope.error.message).to.match(rule);
    });
  }

  it('refuses a base that is not a URL as a config error on custom_host', () => {
    try {
      proxiedUrl({ url: 'not a url', headers: {} }, 'models', new URLSearchParams());
      expect.fail('accepted');
    } catch (e) {
      expect((e as GatewayError).status).to.equal(400);
      expect(((e as GatewayError).toEnvelope() as { error: { param: string } }).error.param).to.equal('custom_host');
    }
  });
});
