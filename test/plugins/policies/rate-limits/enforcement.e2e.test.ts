/**
 * policy.rate-limits enforced end to end: a real gateway in front of a mock OpenAI provider.
 * Date is faked (only Date: sockets and timers stay real) so that no window boundary falls
 * inside a test and windows can be crossed at once.
 */
import { expect } from 'chai';
import OpenAI, { RateLimitError } from 'openai';
import sinon from 'sinon';
import { startMockOpenAI, type MockOpenAI } from '../../../fixtures/mock-openai.js';
import { CHAT_BODY, TEST_API_KEY, type JsonReply, type TestGateway } from '../../../helpers/gateway.js';
import { api, BASE, chat, count, createPolicy, leaf, startLimitsGateway, statusesOf, type Caller } from './harness.js';
import { FailingStatePlugin } from '../../../fixtures/failing-state.js';

const T0 = Date.parse('2025-01-08T10:20:30.000Z'); // a Wednesday, 30 s before a minute ends
const chatCalls = (mock: MockOpenAI) => mock.requests.filter((r) => r.path.endsWith('/chat/completions')).length;

function policy(value: number, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { conditions: [{ key: 'endpoint_type', value: 'chatComplete' }], group_by: [{ key: 'api_key' }], type: 'requests', unit: 'rpm', value, ...extra };
}

function expectLimited(reply: JsonReply, limit: number, retryAfter: number): void {
  expect(reply.status).to.equal(429);
  expect(reply.json.error).to.include({ type: 'rate_limit_error', code: 'rate_limited' });
  expect(reply.json.provider).to.equal('gw');
  expect(reply.headers.get('retry-after')).to.equal(String(retryAfter));
  expect(reply.headers.get('x-ratelimit-limit')).to.equal(String(limit));
  expect(reply.headers.get('x-ratelimit-remaining')).to.equal('0');
  expect(reply.headers.get('x-ratelimit-reset')).to.equal(String(retryAfter));
}

const remaining = (reply: JsonReply) => reply.headers.get('x-ratelimit-remaining');

describe('policy.rate-limits: enforcement (end to end)', () => {
  let mock: MockOpenAI;
  let gw: TestGateway;
  let clock: sinon.SinonFakeTimers;

  before(async () => {
    mock = await startMockOpenAI();
  });
  after(async () => {
    await mock?.close();
  });
  beforeEach(async () => {
    mock.reset();
    clock = sinon.useFakeTimers({ now: T0, toFake: ['Date'] });
    gw = await startLimitsGateway();
  });
  afterEach(async () => {
    clock.restore();
    await gw?.stop();
  });

  it('lets exactly 50 of 200 concurrent requests through a limit of 50', async () => {
    const id = await createPolicy(gw, policy(50, { name: 'fifty' }));
    const replies = await Promise.all(Array.from({ length: 200 }, () => chat(gw, mock)));
    const statuses = statusesOf(replies);
    expect(count(statuses, 200)).to.equal(50);
    expect(count(statuses, 429)).to.equal(150);
    expect(chatCalls(mock)).to.equal(50);
    const passed = replies.filter((r) => r.status === 200).map((r) => Number(remaining(r))).sort((a, b) => a - b);
    expect(passed).to.deep.equal(Array.from({ length: 50 }, (_, i) => i));
    for (const refused of replies.filter((r) => r.status === 429)) expectLimited(refused, 50, 30);
    expect(replies.find((r) => r.status === 429)!.json.error.message)
      .to.equal(`rate limit exceeded: policy "fifty" (${id}) allows 50 requests per minute`);
  });

  it('sends the tightest policy\'s headers; a request refused by one policy gives back what it took from the others', async () => {
    await createPolicy(gw, policy(2));
    await createPolicy(gw, policy(3, { unit: 'rph' }));
    const first = await chat(gw, mock);
    expect(first.status).to.equal(200);
    expect([first.headers.get('x-ratelimit-limit'), remaining(first), first.headers.get('x-ratelimit-reset')]).to.deep.equal(['2', '1', '30']);
    expect(remaining(await chat(gw, mock))).to.equal('0');
    expectLimited(await chat(gw, mock), 2, 30);

    clock.tick(30_000); // the next minute; the hour still holds 2 (the refused request gave its count back)
    const fourth = await chat(gw, mock);
    expect(fourth.status).to.equal(200);
    expect([fourth.headers.get('x-ratelimit-limit'), remaining(fourth), fourth.headers.get('x-ratelimit-reset')]).to.deep.equal(['3', '0', '2340']);
    expectLimited(await chat(gw, mock), 3, 2340);
    expect(chatCalls(mock)).to.equal(3);
  });

  it('the OpenAI SDK sees a RateLimitError with Retry-After and the message', async () => {
    await createPolicy(gw, policy(1));
    const client = new OpenAI({
      apiKey: 'sk-x', baseURL: `${gw.url}/v1`, maxRetries: 0,
      defaultHeaders: { 'x-gw-api-key': TEST_API_KEY, 'x-gw-config': JSON.stringify(leaf(mock)) },
    });
    const ok = await client.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }] }).withResponse();
    expect(ok.response.headers.get('x-ratelimit-remaining')).to.equal('0');
    const error = await client.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }] }).catch((e: unknown) => e);
    expect(error).to.be.instanceOf(RateLimitError);
    const e = error as RateLimitError;
    expect(e.status).to.equal(429);
    expect(e.headers?.get('retry-after')).to.equal('30');
    expect(e.message).to.match(/rate limit exceeded: policy .* allows 1 requests per minute/);
  });

  describe('group_by', () => {
    it('api_key: each key has its own counter', async () => {
      await createPolicy(gw, policy(2));
      const a: Caller = { keyId: 'key-a' };
      const b: Caller = { keyId: 'key-b' };
      const seq = async (caller: Caller) => [await chat(gw, mock, { caller }), await chat(gw, mock, { caller }), await chat(gw, mock, { caller })].map((r) => r.status);
      expect(await seq(a)).to.deep.equal([200, 200, 429]);
      expect(await seq(b)).to.deep.equal([200, 200, 429]);
    });

    it('metadata.<key>: each value has its own counter; requests without it share one', async () => {
      await createPolicy(gw, policy(1, { group_by: [{ key: 'metadata.user' }] }));
      expect((await chat(gw, mock, { metadata: { user: 'u1' } })).status).to.equal(200);
      expect((await chat(gw, mock, { metadata: { user: 'u1' } })).status).to.equal(429);
      expect((await chat(gw, mock, { metadata: { user: 'u2' } })).status).to.equal(200);
      expect((await chat(gw, mock)).status).to.equal(200);
      expect((await chat(gw, mock, { metadata: { team: 'x' } })).status).to.equal(429);
    });

    it('workspace_id: an organisation policy selecting workspaces counts each one apart', async () => {
      await createPolicy(gw, policy(1, { conditions: [{ key: 'workspace_id', value: '*' }], group_by: [{ key: 'workspace_id' }] }));
      const inA: Caller = { keyId: 'k1', workspaceId: 'ws-a' };
      expect((await chat(gw, mock, { caller: inA })).status).to.equal(200);
      expect((await chat(gw, mock, { caller: { keyId: 'k2', workspaceId: 'ws-a' } })).status).to.equal(429);
      expect((await chat(gw, mock, { caller: { keyId: 'k3', workspaceId: 'ws-b' } })).status).to.equal(200);
    });

    it('several keys: a bucket per combination', async () => {
      await createPolicy(gw, policy(1, { group_by: [{ key: 'api_key' }, { key: 'metadata.user' }] }));
      const k1: Caller = { keyId: 'k1' };
      expect((await chat(gw, mock, { caller: k1, metadata: { user: 'u1' } })).status).to.equal(200);
      expect((await chat(gw, mock, { caller: k1, metadata: { user: 'u2' } })).status).to.equal(200);
      expect((await chat(gw, mock, { caller: { keyId: 'k2' }, metadata: { user: 'u1' } })).status).to.equal(200);
      expect((await chat(gw, mock, { caller: k1, metadata: { user: 'u1' } })).status).to.equal(429);
    });
  });

  describe('conditions', () => {
    it('endpoint_type: a policy on embeddings leaves chat alone', async () => {
      await createPolicy(gw, policy(1, { conditions: [{ key: 'endpoint_type', value: 'embed' }] }));
      expect(statusesOf([await chat(gw, mock), await chat(gw, mock)])).to.deep.equal([200, 200]);
      const embed = () => chat(gw, mock, { path: '/v1/embeddings', body: { model: 'text-embedding-3-small', input: 'hi' } });
      expect(statusesOf([await embed(), await embed()])).to.deep.equal([200, 429]);
    });

    it('endpoint_type: image and audio endpoints are limited by their own ids (feature.media)', async () => {
      await createPolicy(gw, policy(1, { conditions: [{ key: 'endpoint_type', value: ['createSpeech', 'imageGenerate'] }] }));
      const speech = () => chat(gw, mock, { path: '/v1/audio/speech', body: { model: 'tts-1', voice: 'alloy', input: 'hi' } });
      const image = () => chat(gw, mock, { path: '/v1/images/generations', body: { prompt: 'a fox' } });
      const first = await speech();
      expect(first.status).to.equal(200);
      expect(first.text).to.equal('ID3-mock-audio:hi');
      expect(statusesOf([await speech(), await image()])).to.deep.equal([429, 429]);
      expect(statusesOf([await chat(gw, mock)])).to.deep.equal([200]);
    });

    it('metadata: value lists, "*" and excludes select the requests counted', async () => {
      await createPolicy(gw, policy(1, { conditions: [{ key: 'metadata.team', value: '*', excludes: 'ops' }], group_by: [{ key: 'metadata.team' }] }));
      expect((await chat(gw, mock)).status, 'no team: not selected').to.equal(200);
      expect((await chat(gw, mock)).status).to.equal(200);
      expect((await chat(gw, mock, { metadata: { team: 'ops' } })).status, 'excluded').to.equal(200);
      expect((await chat(gw, mock, { metadata: { team: 'ops' } })).status).to.equal(200);
      expect((await chat(gw, mock, { metadata: { team: 'red' } })).status).to.equal(200);
      expect((await chat(gw, mock, { metadata: { team: 'red' } })).status).to.equal(429);
    });

    it('api_key: only the named keys are limited', async () => {
      await createPolicy(gw, policy(1, { conditions: [{ key: 'api_key', value: ['k1', 'k2'] }] }));
      for (const keyId of ['k1', 'k2']) {
        expect(statusesOf([await chat(gw, mock, { caller: { keyId } }), await chat(gw, mock, { caller: { keyId } })])).to.deep.equal([200, 429]);
      }
      expect(statusesOf([await chat(gw, mock, { caller: { keyId: 'k3' } }), await chat(gw, mock, { caller: { keyId: 'k3' } })])).to.deep.equal([200, 200]);
    });

    it('a policy without a workspace_id condition applies only in its own workspace', async () => {
      await createPolicy(gw, policy(1), { keyId: 'admin-a', workspaceId: 'ws-a' });
      const inA = (keyId: string) => chat(gw, mock, { caller: { keyId, workspaceId: 'ws-a' } });
      expect(statusesOf([await inA('k1'), await inA('k1')])).to.deep.equal([200, 429]);
      const inB = () => chat(gw, mock, { caller: { keyId: 'k1', workspaceId: 'ws-b' } });
      expect(statusesOf([await inB(), await inB()])).to.deep.equal([200, 200]);
      // Organisation keys count in the default workspace, not in ws-a.
      expect(statusesOf([await chat(gw, mock), await chat(gw, mock)])).to.deep.equal([200, 200]);
    });

    it('workspace_id: the named workspaces only', async () => {
      await createPolicy(gw, policy(1, { conditions: [{ key: 'workspace_id', value: ['ws-a'] }] }));
      const call = (workspaceId: string) => chat(gw, mock, { caller: { keyId: 'k1', workspaceId } });
      expect(statusesOf([await call('ws-a'), await call('ws-a')])).to.deep.equal([200, 429]);
      expect(statusesOf([await call('ws-b'), await call('ws-b')])).to.deep.equal([200, 200]);
    });
  });

  it('a change applies to the next request: raising the value, archiving the policy', async () => {
    const id = await createPolicy(gw, policy(1));
    expect(statusesOf([await chat(gw, mock), await chat(gw, mock)])).to.deep.equal([200, 429]);
    expect((await api(gw, 'PUT', `${BASE}/${id}`, { value: 2 })).status).to.equal(200);
    expect(statusesOf([await chat(gw, mock), await chat(gw, mock)])).to.deep.equal([200, 429]);
    expect((await api(gw, 'DELETE', `${BASE}/${id}`)).status).to.equal(200);
    const after = await chat(gw, mock);
    expect(after.status).to.equal(200);
    expect(after.headers.get('x-ratelimit-limit')).to.equal(null);
  });

  it('leaves requests no policy selects without x-ratelimit headers, and admin routes unlimited', async () => {
    await createPolicy(gw, policy(1, { conditions: [{ key: 'metadata.team', value: 'red' }] }));
    const reply = await chat(gw, mock);
    expect(reply.status).to.equal(200);
    expect(reply.headers.get('x-ratelimit-limit')).to.equal(null);
    for (let i = 0; i < 3; i++) expect((await api(gw, 'GET', BASE)).status).to.equal(200);
  });

  it('counts a request the provider failed (it passed the gate), and refusals do not reach the provider', async () => {
    await createPolicy(gw, policy(1));
    mock.next({ status: 500 });
    expect((await chat(gw, mock)).status).to.equal(500);
    expect((await chat(gw, mock)).status).to.equal(429);
    expect(chatCalls(mock)).to.equal(1);
  });
});

describe('policy.rate-limits: a failing state store', () => {
  let mock: MockOpenAI;
  let gw: TestGateway | undefined;

  before(async () => {
    mock = await startMockOpenAI();
  });
  after(async () => {
    await mock?.close();
  });
  afterEach(async () => {
    await gw?.stop();
    gw = undefined;
  });

  it('lets requests through by default (failOpen)', async () => {
    gw = await startLimitsGateway({ plugins: [FailingStatePlugin] });
    await createPolicy(gw, policy(1));
    expect(statusesOf([await chat(gw, mock), await chat(gw, mock)])).to.deep.equal([200, 200]);
  });

  it('answers 503 with failOpen: false', async () => {
    gw = await startLimitsGateway({ plugins: [FailingStatePlugin], rateLimits: { failOpen: false } });
    await createPolicy(gw, policy(1));
    const reply = await chat(gw, mock);
    expect(reply.status).to.equal(503);
    expect(reply.json.error.message).to.equal('rate-limit counters are unavailable');
    // Requests no policy selects never touch the store.
    expect((await chat(gw, mock, { path: '/v1/embeddings', body: { model: 'text-embedding-3-small', input: 'x' } })).status).to.equal(200);
  });
});

void CHAT_BODY;
