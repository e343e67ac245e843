/** The mock Vertex AI itself: it must refuse what the real service refuses, or the adapter tests prove little. */
import { expect } from 'chai';
import sinon from 'sinon';
import { createSign } from 'node:crypto';
import type { VertexMock } from '../../fixtures/mock-vertex.js';
import { CLIENT_EMAIL, keyPair, startMock, strangerKeyPair } from './service-account.js';

const SCOPE = 'https://www.googleapis.com/auth/cloud-platform';
const GEMINI_PATH = '/v1/projects/p/locations/us-central1/publishers/google/models/gemini-2.0-flash';
const CLAUDE_PATH = '/v1/projects/p/locations/us-east5/publishers/anthropic/models/claude-3-haiku@20240307';

function jwt(claims: Record<string, unknown>, privateKey = keyPair().privateKey): string {
  const part = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');
  const input = `${part({ alg: 'RS256', typ: 'JWT' })}.${part(claims)}`;
  return `${input}.${createSign('RSA-SHA256').update(input).sign(privateKey, 'base64url')}`;
}

describe('mock Vertex AI', () => {
  let mock: VertexMock;
  let clock: sinon.SinonFakeTimers | undefined;
  beforeEach(async () => {
    mock = await startMock();
  });
  afterEach(async () => {
    clock?.restore();
    clock = undefined;
    await mock.close();
  });

  const claims = (extra: Record<string, unknown> = {}) => {
    const now = Math.floor(Date.now() / 1000);
    return { iss: CLIENT_EMAIL, scope: SCOPE, aud: mock.tokenUri, iat: now, exp: now + 3600, ...extra };
  };
  const exchange = (assertion: string, grant = 'urn:ietf:params:oauth:grant-type:jwt-bearer') =>
    fetch(mock.tokenUri, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: grant, assertion }).toString(),
    });
  const call = (path: string, token: string, body: unknown) =>
    fetch(mock.url + path, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const token = async () => ((await (await exchange(jwt(claims()))).json()) as { access_token: string }).access_token;

  it('mints a token for a correctly signed assertion, and only then serves model calls', async () => {
    const res = await exchange(jwt(claims()));
    expect(res.status).to.equal(200);
    const body = (await res.json()) as Record<string, unknown>;
    expect(body).to.include({ expires_in: 3599, token_type: 'Bearer' });
    const ok = await call(`${GEMINI_PATH}:generateContent`, body['access_token'] as string, { contents: [{ role: 'user', parts: [{ text: 'x' }] }] });
    expect(ok.status).to.equal(200);
    const refused = await call(`${GEMINI_PATH}:generateContent`, 'ya29.forged', { contents: [{ role: 'user', parts: [{ text: 'x' }] }] });
    expect(refused.status).to.equal(401);
    expect(((await refused.json()) as { error: { status: string } }).error.status).to.equal('UNAUTHENTICATED');
    expect(mock.tokenExchanges()).to.equal(1);
  });

  it('refuses wrong signatures, issuers, audiences, scopes, lifetimes and grant types', async () => {
    const other = strangerKeyPair();
    const cases: [Promise<Response>, string][] = [
      [exchange(jwt(claims(), other.privateKey)), 'Invalid JWT Signature.'],
      [exchange(jwt(claims({ iss: 'someone@else.iam.gserviceaccount.com' }))), 'Invalid email or User ID'],
      [exchange(jwt(claims({ aud: 'https://oauth2.googleapis.com/token' }))), 'Failed audience check'],
      [exchange(jwt(claims({ scope: 'https://www.googleapis.com/auth/drive' }))), 'invalid_scope'],
      [exchange(jwt(claims({ exp: Math.floor(Date.now() / 1000) + 7200 }))), 'short-lived'],
      [exchange(jwt(claims({ iat: 1, exp: 3601 }))), 'short-lived'],
      [exchange(jwt(claims()), 'client_credentials'), 'unsupported_grant_type'],
    ];
    for (const [pending, expected] of cases) {
      const res = await pending;
      expect(res.status, expected).to.equal(400);
      expect(JSON.stringify(await res.json()), expected).to.contain(expected);
    }
    expect(mock.tokenExchanges()).to.equal(0);
  });

  it('stops accepting a token once it has expired', async () => {
    clock = sinon.useFakeTimers({ now: Date.now(), toFake: ['Date'] });
    const t = await token();
    const body = { contents: [{ role: 'user', parts: [{ text: 'x' }] }] };
    expect((await call(`${GEMINI_PATH}:generateContent`, t, body)).status).to.equal(200);
    clock.tick(3600_000);
    expect((await call(`${GEMINI_PATH}:generateContent`, t, body)).status).to.equal(401);
  });

  it('refuses Gemini bodies with unknown fields or roles, in Google\'s error format', async () => {
    const t = await token();
    const withModel = await call(`${GEMINI_PATH}:generateContent`, t, { model: 'x', contents: [{ role: 'user', parts: [{ text: 'x' }] }] });
    expect(withModel.status).to.equal(400);
    expect(await withModel.json()).to.deep.equal({
      error: { code: 400, message: 'Invalid JSON payload received. Unknown name "model": Cannot find field.', status: 'INVALID_ARGUMENT' },
    });
    const badRole = await call(`${GEMINI_PATH}:generateContent`, t, { contents: [{ role: 'assistant', parts: [{ text: 'x' }] }] });
    expect(badRole.status).to.equal(400);
    const noSse = await call(`${GEMINI_PATH}:streamGenerateContent`, t, { contents: [{ role: 'user', parts: [{ text: 'x' }] }] });
    expect(noSse.status).to.equal(400);
    expect((await call('/v1/elsewhere', t, {})).status).to.equal(404);
  });

  it('streams Gemini events as CRLF-framed data lines', async () => {
    const res = await call(`${GEMINI_PATH}:streamGenerateContent?alt=sse`, await token(), { contents: [{ role: 'user', parts: [{ text: 'hello there' }] }] });
    expect(res.headers.get('content-type')).to.match(/^text\/event-stream/);
    const events = (await res.text()).split('\r\n\r\n').filter(Boolean);
    expect(events.length).to.be.at.least(3);
    for (const e of events) expect(e).to.match(/^data: \{/);
    const last = JSON.parse(events[events.length - 1]!.slice(6));
    expect(last.candidates[0].finishReason).to.equal('STOP');
    expect(last.usageMetadata.totalTokenCount).to.be.greaterThan(0);
  });

  it('refuses Claude bodies that carry model or lack the Vertex anthropic_version, in Anthropic\'s format', async () => {
    const t = await token();
    const base = { messages: [{ role: 'user', content: 'x' }], max_tokens: 10 };
    const withModel = await call(`${CLAUDE_PATH}:rawPredict`, t, { ...base, anthropic_version: 'vertex-2023-10-16', model: 'claude' });
    expect(withModel.status).to.equal(400);
    expect(await withModel.json()).to.deep.equal({ type: 'error', error: { type: 'invalid_request_error', message: 'model: Extra inputs are not permitted' } });
    const noVersion = await call(`${CLAUDE_PATH}:rawPredict`, t, base);
    expect(noVersion.status).to.equal(400);
    const ok = await call(`${CLAUDE_PATH}:streamRawPredict`, t, { ...base, anthropic_version: 'vertex-2023-10-16', stream: true });
    const text = await ok.text();
    expect(text).to.match(/^event: message_start\ndata: /);
    expect(text).to.contain('event: message_stop');
  });
});
