import { expect } from 'chai';
import { generateKeyPairSync, sign, type KeyObject } from 'node:crypto';
import { type Runtime } from '../../../core/index.js';
import { UndiciTransport } from '../../../core/transport.js';
import { createJwtCheck } from '../../../guardrails/jwt/check.js';
import JwtGuardrail from '../../../guardrails/jwt/index.js';
import type { JwtParams } from '../../../guardrails/jwt/params.js';
import { context, input, loadCheck, run, validateParams, type TestableCheck } from '../helpers.js';
import { sendJson, startServer, type LocalServer } from '../local-server.js';

interface Signer {
  kid: string;
  alg: 'RS256' | 'ES256' | 'PS256';
  privateKey: KeyObject;
  jwk: Record<string, unknown>;
}

function signer(kid: string, alg: Signer['alg']): Signer {
  const pair = alg === 'ES256'
    ? generateKeyPairSync('ec', { namedCurve: 'P-256' })
    : generateKeyPairSync('rsa', { modulusLength: 2048 });
  return { kid, alg, privateKey: pair.privateKey, jwk: { ...pair.publicKey.export({ format: 'jwk' }), kid, use: 'sig', alg } };
}

/** A signed token; a string payload is taken as the payload's JSON text as it is. */
function token(s: Signer, payload: Record<string, unknown> | string, header: Record<string, unknown> = {}): string {
  const enc = (o: unknown) => Buffer.from(typeof o === 'string' ? o : JSON.stringify(o)).toString('base64url');
  const signingInput = `${enc({ alg: s.alg, typ: 'JWT', kid: s.kid, ...header })}.${enc(payload)}`;
  const data = Buffer.from(signingInput);
  const signature = s.alg === 'ES256'
    ? sign('sha256', data, { key: s.privateKey, dsaEncoding: 'ieee-p1363' })
    : s.alg === 'PS256'
      ? sign('sha256', data, { key: s.privateKey, padding: 6 /* RSA_PKCS1_PSS_PADDING */, saltLength: 32 })
      : sign('sha256', data, s.privateKey);
  return `${signingInput}.${signature.toString('base64url')}`;
}

describe('guardrail default.jwt', () => {
  let check: TestableCheck<JwtParams>;
  let runtime: Runtime;
  let jwks: LocalServer;
  const rsa = signer('rsa-1', 'RS256');
  const ec = signer('ec-1', 'ES256');
  const stranger = signer('rsa-1', 'RS256'); // same kid, other key
  let published: Signer[] = [rsa, ec];
  const now = () => Math.floor(Date.now() / 1000);
  const claims = (extra: Record<string, unknown> = {}) => ({ sub: 'user-1', iss: 'https://idp.test', aud: 'gw', exp: now() + 300, iat: now(), ...extra });
  const params = (extra: Record<string, unknown> = {}) => ({ jwksUri: `${jwks.url}/.well-known/jwks.json`, ...extra });
  const withToken = (t: string, header = 'authorization') => context({ [header]: `Bearer ${t}` });

  before(async () => {
    ({ check, runtime } = await loadCheck(JwtGuardrail, 'default.jwt'));
    jwks = await startServer((_req, res) => sendJson(res, 200, { keys: published.map((s) => s.jwk) }));
  });
  after(async () => {
    await jwks.close();
    await runtime.close();
  });

  describe('params', () => {
    it('defaults: Authorization header, RS256 + ES256, exp required, 5 s tolerance, 1 day cache', () => {
      expect(validateParams(check, { jwksUri: 'https://idp.test/jwks' }).value).to.deep.equal({
        jwksUri: 'https://idp.test/jwks', headerKey: 'Authorization', algorithms: ['RS256', 'ES256'], requireExp: true, clockTolerance: 5, cacheMaxAge: 86400,
      });
    });
    it('rejects a missing or bad jwksUri, HS256 and none', () => {
      expect(validateParams(check, {}).issues[0]).to.deep.equal({ path: 'jwksUri', rule: 'is required' });
      expect(validateParams(check, { jwksUri: 'file:///etc/keys' }).ok).to.equal(false);
      expect(validateParams(check, { jwksUri: 'https://a.test', algorithms: ['HS256'] }).issues[0]!.path).to.equal('algorithms.0');
      expect(validateParams(check, { jwksUri: 'https://a.test', algorithms: ['none'] }).ok).to.equal(false);
    });
  });

  it('passes a valid RS256 token and a valid ES256 token, reporting the subject', async () => {
    const rs = await run(check, params({ issuer: 'https://idp.test', audience: ['gw', 'other'] }), input('x'), withToken(token(rsa, claims())));
    expect(rs.verdict).to.equal(true);
    expect(rs.data).to.deep.equal({ alg: 'RS256', kid: 'rsa-1', sub: 'user-1' });
    expect((await run(check, params(), input('x'), withToken(token(ec, claims())))).verdict).to.equal(true);
  });

  it('reads another header, with or without Bearer', async () => {
    const ctx = context({ 'x-user-token': token(ec, claims()) });
    expect((await run(check, params({ headerKey: 'X-User-Token' }), input('x'), ctx)).verdict).to.equal(true);
  });

  const failsWith = async (explanation: RegExp, t: string, extra: Record<string, unknown> = {}) => {
    const result = await run(check, params(extra), input('x'), withToken(t));
    expect(result.verdict).to.equal(false);
    expect((result.data as { explanation: string }).explanation).to.match(explanation);
    expect(JSON.stringify(result.data)).not.to.include(t);
  };

  it('fails without a token or with a malformed one', async () => {
    const none = await run(check, params(), input('x'), context());
    expect(none.verdict).to.equal(false);
    await failsWith(/not a well-formed JWT/, 'abc.def');
    await failsWith(/not a well-formed JWT/, 'a.b.c.d');
  });

  it('fails a token whose claims nest deeper than the JSON depth limit, without comparing them', async () => {
    const deep = '['.repeat(5_000) + ']'.repeat(5_000);
    await failsWith(/not a well-formed JWT/, token(rsa, JSON.stringify({ ...claims(), team: 0 }).replace('"team":0', `"team":${deep}`)));
  });

  it('fails a forged signature, a tampered payload and a key of the wrong kid', async () => {
    await failsWith(/signature is not valid/, token(stranger, claims()));
    const [h, , s] = token(rsa, claims()).split('.');
    const tampered = `${h}.${Buffer.from(JSON.stringify(claims({ sub: 'admin' }))).toString('base64url')}.${s}`;
    await failsWith(/signature is not valid/, tampered);
    await failsWith(/no key with kid "nope"/, token(rsa, claims(), { kid: 'nope' }));
  });

  it('refuses algorithms that are not allowed, alg none included', async () => {
    await failsWith(/algorithm "ES256" is not allowed/, token(ec, claims()), { algorithms: ['RS256'] });
    const unsigned = `${Buffer.from('{"alg":"none"}').toString('base64url')}.${Buffer.from(JSON.stringify(claims())).toString('base64url')}.`;
    await failsWith(/algorithm "none" is not allowed/, unsigned);
    // An RSA key cannot verify an ES256 token even if its kid is named.
    await failsWith(/no key with kid "rsa-1" for ES256/, token(ec, claims(), { kid: 'rsa-1' }));
  });

  it('checks exp, nbf, maxTokenAge, iss, aud and custom claims', async () => {
    await failsWith(/expired/, token(rsa, claims({ exp: now() - 60 })));
    expect((await run(check, params(), input('x'), withToken(token(rsa, claims({ exp: now() - 2 }))))).verdict).to.equal(true); // within tolerance
    await failsWith(/no exp claim/, token(rsa, { sub: 'x' }));
    expect((await run(check, params({ requireExp: false }), input('x'), withToken(token(rsa, { sub: 'x' })))).verdict).to.equal(true);
    await failsWith(/not valid yet/, token(rsa, claims({ nbf: now() + 600 })));
    await failsWith(/older than maxTokenAge/, token(rsa, claims({ iat: now() - 3600 })), { maxTokenAge: 60 });
    await failsWith(/issuer/, token(rsa, claims({ iss: 'https://evil.test' })), { issuer: 'https://idp.test' });
    await failsWith(/audience/, token(rsa, claims()), { audience: 'billing' });
    await failsWith(/claim "role"/, token(rsa, claims({ role: 'user' })), { claims: { role: 'admin' } });
    const groups = await run(check, params({ claims: { groups: 'ml', tenant: { id: 7 } } }), input('x'),
      withToken(token(rsa, claims({ groups: ['ml', 'ops'], tenant: { id: 7 } }))));
    expect(groups.verdict).to.equal(true);
  });

  it('caches the key set, and fetches again once for an unknown kid (rotation)', async () => {
    const fresh = await loadCheck<JwtParams>(JwtGuardrail, 'default.jwt');
    try {
      const before = jwks.received.length;
      for (let i = 0; i < 5; i++) expect((await run(fresh.check, params(), input('x'), withToken(token(rsa, claims())))).verdict).to.equal(true);
      expect(jwks.received.length - before).to.equal(1);
      // A new key appears; within MIN_REFETCH_MS of the last fetch the unknown kid is refused without a fetch.
      const rotated = signer('rsa-2', 'RS256');
      published = [rsa, ec, rotated];
      await failsWithCheck(fresh.check, token(rotated, claims()));
      expect(jwks.received.length - before).to.equal(1);
    } finally {
      published = [rsa, ec];
      await fresh.runtime.close();
    }
  });

  async function failsWithCheck(c: TestableCheck<JwtParams>, t: string) {
    expect((await run(c, params(), input('x'), withToken(t))).verdict).to.equal(false);
  }

  it('fetches again for an unknown kid once the refetch interval passed, and after cacheMaxAge', async () => {
    let clock = Date.now();
    const transport = new UndiciTransport();
    const own = createJwtCheck(transport, () => clock) as TestableCheck<JwtParams>;
    try {
      const before = jwks.received.length;
      expect((await run(own, params({ cacheMaxAge: 60 }), input('x'), withToken(token(rsa, claims())))).verdict).to.equal(true);
      const rotated = signer('rsa-3', 'RS256');
      published = [rsa, rotated];
      clock += 11_000;
      expect((await run(own, params({ cacheMaxAge: 60 }), input('x'), withToken(token(rotated, claims())))).verdict).to.equal(true);
      expect(jwks.received.length - before).to.equal(2);
      clock += 61_000;
      expect((await run(own, params({ cacheMaxAge: 60 }), input('x'), withToken(token(rsa, claims())))).verdict).to.equal(true);
      expect(jwks.received.length - before).to.equal(3);
    } finally {
      published = [rsa, ec];
      await transport.close();
    }
  });

  it('fails closed when the key set cannot be fetched', async () => {
    const result = await run(check, { jwksUri: 'http://127.0.0.1:1/jwks' }, input('x'), withToken(token(rsa, claims())));
    expect(result.verdict).to.equal(false);
    expect((result.data as { explanation: string }).explanation).to.match(/key set could not be fetched/);
  });
});
