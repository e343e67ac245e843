/** Service-account tokens: the signed assertion, one exchange per account, caching and its limits. */
import { expect } from 'chai';
import sinon from 'sinon';
import { createVerify } from 'node:crypto';
import { abortSourceOf, GatewayError, type Transport, type UpstreamReply, type UpstreamRequest } from '../../../core/index.js';
import { CLOUD_PLATFORM_SCOPE, ServiceAccountTokens, type TokenCacheOptions } from '../../../core/index.js';
import { CLIENT_EMAIL, keyPair, serviceAccount, strangerKeyPair } from './service-account.js';

const TOKEN_URI = 'https://oauth2.test/token';
const OPTIONS: TokenCacheOptions = { owner: 'vertex-ai', privateKeyPath: 'cloudC_service_account_json.private_key', refreshMarginMs: 300_000, maxEntries: 10, exchangeTimeoutMs: 1000 };
const never = new AbortController().signal;

type Answer = { status: number; body: unknown } | Error | 'hang';

/** A transport that answers token requests from a script (default: a fresh 1-hour token each time). */
function fakeTransport(script: Answer[] = []) {
  const calls: UpstreamRequest[] = [];
  let minted = 0;
  const transport: Transport = {
    async send(request, abort): Promise<UpstreamReply> {
      const source = abortSourceOf(abort);
      calls.push(request);
      const answer = script.shift() ?? { status: 200, body: { access_token: `tok-${++minted}`, expires_in: 3600, token_type: 'Bearer' } };
      if (answer === 'hang') {
        await new Promise((_, reject) => source.onAbort(() => reject(source.reason)));
      }
      if (answer instanceof Error) throw answer;
      const { status, body } = answer as { status: number; body: unknown };
      const text = typeof body === 'string' ? body : JSON.stringify(body);
      return {
        status, headers: { 'content-type': 'application/json' },
        body: (async function* () { yield Buffer.from(text); })(),
        bytes: async () => Buffer.from(text), text: async () => text, dump: async () => undefined,
      };
    },
    close: async () => undefined,
  };
  return { transport, calls };
}

function claimsOf(request: UpstreamRequest) {
  const form = new URLSearchParams(String(request.body));
  const [header, claims, signature] = form.get('assertion')!.split('.');
  return {
    form,
    header: JSON.parse(Buffer.from(header!, 'base64url').toString()),
    claims: JSON.parse(Buffer.from(claims!, 'base64url').toString()),
    valid: createVerify('RSA-SHA256').update(`${header}.${claims}`).verify(keyPair().publicKey, Buffer.from(signature!, 'base64url')),
  };
}

async function refusal(run: () => Promise<unknown>): Promise<GatewayError> {
  try {
    await run();
  } catch (e) {
    expect(e).to.be.instanceOf(GatewayError);
    return e as GatewayError;
  }
  return expect.fail('expected a GatewayError');
}

describe('vertex-ai service-account tokens', () => {
  const sa = serviceAccount(TOKEN_URI) as unknown as Parameters<ServiceAccountTokens['token']>[0];
  let clock: sinon.SinonFakeTimers | undefined;
  afterEach(() => clock?.restore());

  it('signs an RS256 assertion with the account key and posts it as a jwt-bearer grant', async () => {
    const { transport, calls } = fakeTransport();
    const now = Date.now();
    expect(await new ServiceAccountTokens(transport, OPTIONS).token(sa, never)).to.equal('tok-1');
    expect(calls).to.have.length(1);
    expect(calls[0]!.url).to.equal(TOKEN_URI);
    expect(calls[0]!.method).to.equal('POST');
    expect(calls[0]!.headers['content-type']).to.equal('application/x-www-form-urlencoded');
    const { form, header, claims, valid } = claimsOf(calls[0]!);
    expect(form.get('grant_type')).to.equal('urn:ietf:params:oauth:grant-type:jwt-bearer');
    expect(valid).to.equal(true);
    expect(header).to.deep.equal({ alg: 'RS256', typ: 'JWT', kid: 'a1b2c3d4e5' });
    expect(claims.iss).to.equal(CLIENT_EMAIL);
    expect(claims.scope).to.equal(CLOUD_PLATFORM_SCOPE);
    expect(claims.aud).to.equal(TOKEN_URI);
    expect(claims.exp - claims.iat).to.equal(3600);
    expect(Math.abs(claims.iat - now / 1000)).to.be.lessThan(5);
  });

  it('shares one exchange between concurrent first requests and caches the token', async () => {
    const { transport, calls } = fakeTransport();
    const tokens = new ServiceAccountTokens(transport, OPTIONS);
    const all = await Promise.all(Array.from({ length: 20 }, () => tokens.token(sa, new AbortController().signal)));
    expect(new Set(all)).to.deep.equal(new Set(['tok-1']));
    for (let i = 0; i < 5; i++) expect(await tokens.token(sa, never)).to.equal('tok-1');
    expect(calls).to.have.length(1);
    expect(tokens.exchanges).to.equal(1);
  });

  it('re-exchanges only once the refresh margin before expiry is reached', async () => {
    clock = sinon.useFakeTimers({ now: Date.UTC(2030, 0, 1), toFake: ['Date'] });
    const { transport, calls } = fakeTransport();
    const tokens = new ServiceAccountTokens(transport, OPTIONS);
    expect(await tokens.token(sa, never)).to.equal('tok-1');
    clock.tick(3600_000 - 300_000 - 1000); // 55 min: still more than 5 min left
    expect(await tokens.token(sa, never)).to.equal('tok-1');
    clock.tick(2000); // inside the 5-minute margin
    expect(await tokens.token(sa, never)).to.equal('tok-2');
    expect(calls).to.have.length(2);
    // The new assertion is dated by the clock of its exchange.
    expect(claimsOf(calls[1]!).claims.iat).to.equal(Math.floor(Date.now() / 1000));
  });

  it('keeps serving the still-valid token when a refresh inside the margin fails, never an expired one', async () => {
    clock = sinon.useFakeTimers({ now: Date.UTC(2030, 0, 1), toFake: ['Date'] });
    const { transport, calls } = fakeTransport([
      { status: 200, body: { access_token: 'old', expires_in: 3600 } },
      { status: 503, body: 'down' },
      { status: 503, body: 'down' },
    ]);
    const tokens = new ServiceAccountTokens(transport, OPTIONS);
    expect(await tokens.token(sa, never)).to.equal('old');
    clock.tick(3600_000 - 60_000); // one minute left
    expect(await tokens.token(sa, never)).to.equal('old');
    clock.tick(61_000); // expired, and the endpoint is still down
    expect((await refusal(() => tokens.token(sa, never))).status).to.equal(502);
    expect(calls).to.have.length(3);
    expect(await tokens.token(sa, never)).to.equal('tok-1');
  });

  it('uses a short-lived token for at least half its life', async () => {
    clock = sinon.useFakeTimers({ now: Date.UTC(2030, 0, 1), toFake: ['Date'] });
    const { transport } = fakeTransport([{ status: 200, body: { access_token: 'short', expires_in: 120 } }]);
    const tokens = new ServiceAccountTokens(transport, OPTIONS);
    expect(await tokens.token(sa, never)).to.equal('short');
    clock.tick(59_000);
    expect(await tokens.token(sa, never)).to.equal('short');
    clock.tick(2000);
    expect(await tokens.token(sa, never)).to.equal('tok-1');
  });

  it('keeps accounts apart by their private key, not only their e-mail', async () => {
    const other = strangerKeyPair();
    const { transport, calls } = fakeTransport();
    const tokens = new ServiceAccountTokens(transport, OPTIONS);
    const impostor = { ...sa, private_key: other.privateKey };
    expect(await tokens.token(sa, never)).to.equal('tok-1');
    expect(await tokens.token(impostor, never)).to.equal('tok-2');
    expect(calls).to.have.length(2);
  });

  it('drops the oldest account beyond the cache size', async () => {
    const { transport, calls } = fakeTransport();
    const tokens = new ServiceAccountTokens(transport, { ...OPTIONS, maxEntries: 2 });
    const accounts = ['a', 'b', 'c'].map((n) => ({ ...sa, client_email: `${n}@x.iam.gserviceaccount.com` }));
    for (const account of accounts) await tokens.token(account, never);
    await tokens.token(accounts[2]!, never);
    await tokens.token(accounts[1]!, never);
    expect(calls).to.have.length(3);
    await tokens.token(accounts[0]!, never);
    expect(calls).to.have.length(4);
  });

  it('turns a refused credential into a 401 naming the token endpoint error, and does not cache it', async () => {
    const { transport, calls } = fakeTransport([{ status: 400, body: { error: 'invalid_grant', error_description: 'Invalid JWT Signature.' } }]);
    const tokens = new ServiceAccountTokens(transport, OPTIONS);
    const e = await refusal(() => tokens.token(sa, never));
    expect(e.status).to.equal(401);
    expect(e.provider).to.equal('vertex-ai');
    expect(e.code).to.equal('token_exchange_failed');
    expect(e.type).to.equal('authentication_error');
    expect(e.message).to.contain('invalid_grant').and.contain('Invalid JWT Signature.');
    expect(await tokens.token(sa, never)).to.equal('tok-1');
    expect(calls).to.have.length(2);
  });

  it('answers 502 when the token endpoint fails, is unreachable, or answers without a token', async () => {
    for (const answer of [
      { status: 503, body: 'unavailable' },
      { status: 429, body: { error: 'rate_limited' } },
      Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }),
      { status: 200, body: 'not json' },
      { status: 200, body: { token_type: 'Bearer' } },
    ] as Answer[]) {
      const { transport } = fakeTransport([answer]);
      const e = await refusal(() => new ServiceAccountTokens(transport, OPTIONS).token(sa, never));
      expect(e.status, JSON.stringify(answer)).to.equal(502);
      expect(e.provider).to.equal('vertex-ai');
      expect(e.message).to.not.contain('PRIVATE KEY');
    }
  });

  it('gives up on a token endpoint that does not answer within the exchange time-out', async () => {
    const { transport } = fakeTransport(['hang']);
    const e = await refusal(() => new ServiceAccountTokens(transport, { ...OPTIONS, exchangeTimeoutMs: 20 }).token(sa, never));
    expect(e.status).to.equal(502);
    expect(e.message).to.contain('no answer within 20 ms');
  });

  it('lets one caller stop waiting without cancelling the exchange the others share', async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const { transport, calls } = fakeTransport();
    const slow: Transport = { ...transport, send: async (r, s) => { await gate; return transport.send(r, s); } };
    const tokens = new ServiceAccountTokens(slow, OPTIONS);
    const leaving = new AbortController();
    const first = tokens.token(sa, leaving.signal);
    const second = tokens.token(sa, never);
    const reason = new GatewayError({ status: 408, message: 'timed out' });
    leaving.abort(reason);
    try {
      await first;
      expect.fail('the aborted caller must not get a token');
    } catch (e) {
      expect(e).to.equal(reason);
    }
    release();
    expect(await second).to.equal('tok-1');
    expect(calls).to.have.length(1);
  });

  it('reports a private key that is not a usable PEM as a config error', async () => {
    const { transport, calls } = fakeTransport();
    const broken = { ...sa, private_key: '-----BEGIN PRIVATE KEY-----\nnot a key\n-----END PRIVATE KEY-----\n' };
    const e = await refusal(() => new ServiceAccountTokens(transport, OPTIONS).token(broken, never));
    expect(e.status).to.equal(400);
    expect(e.message).to.contain('cloudC_service_account_json.private_key');
    expect(calls).to.have.length(0);
  });
});
