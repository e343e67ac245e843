/**
 * Changes made on one instance reach the others within 1 s through the invalidation bus relayed
 * by Redis pub/sub: two gateways on one data folder and one Redis (GW_REDIS_URL; skipped without
 * it). Every cache involved keeps its default lifetime (30 s for keys, configs, integrations and
 * guardrails; 10 s for policies; 5 s for prompts), so only the bus can make it this fast.
 */
import { expect } from 'chai';
import { Redis } from 'ioredis';
import { CHAT_BODY, postJson, TEST_API_KEY, type TestGateway } from '../../../helpers/gateway.js';
import { startMockOpenAI, type MockOpenAI } from '../../../fixtures/mock-openai.js';
import { sharedRedisUrl } from './helpers.js';
import { call, startFleet, within, type Fleet } from './fleet.js';

describe('store.redis: changes reach every instance within 1 s (end to end, two instances)', function () {
  const url = sharedRedisUrl();
  let fleet: Fleet;
  let a: TestGateway;
  let b: TestGateway;
  let mockA: MockOpenAI;
  let mockB: MockOpenAI;

  const chat = (gw: TestGateway, headers: Record<string, string>, content = 'hi') =>
    postJson(gw.url, '/v1/chat/completions', { ...CHAT_BODY, messages: [{ role: 'user', content }] }, { 'content-type': 'application/json', 'x-gw-api-key': TEST_API_KEY, ...headers });
  const direct = (mock: MockOpenAI, extra: Record<string, unknown> = {}) =>
    ({ 'x-gw-config': JSON.stringify({ provider: 'openai', api_key: 'sk-test', custom_host: `${mock.url}/v1`, ...extra }) });

  before(async function () {
    if (!url) return this.skip();
    [mockA, mockB] = await Promise.all([startMockOpenAI(), startMockOpenAI()]);
    fleet = await startFleet(2, { redisUrl: url });
    [a, b] = fleet.gateways as [TestGateway, TestGateway];
  });

  after(async () => {
    if (!url) return;
    await fleet?.stop();
    await Promise.all([mockA?.close(), mockB?.close()]);
  });

  beforeEach(() => {
    mockA?.reset();
    mockB?.reset();
  });

  it('a key deleted on A is a 401 on B within 1 s (B had it cached as valid)', async () => {
    const created = await call(a, 'POST', '/v1/api-keys', { name: 'fleet', type: 'organisation-service' });
    expect(created.status, created.text).to.equal(200);
    const key = created.json.key as string;
    expect((await chat(b, { ...direct(mockA), 'x-gw-api-key': key })).status).to.equal(200);
    expect((await call(a, 'DELETE', `/v1/api-keys/${created.json.id}`)).status).to.equal(200);
    await within(1000, async () => (await chat(b, { ...direct(mockA), 'x-gw-api-key': key })).status === 401);
    const refused = await chat(b, { ...direct(mockA), 'x-gw-api-key': key });
    expect(refused.json.error.message).to.equal('unknown, expired, deleted or rotated-out x-gw-api-key');
  });

  it('a stored config changed on A is used by B within 1 s', async () => {
    // A stored config holds no credential: the client brings its own.
    const headers = { 'x-gw-config': 'fleet-config', authorization: 'Bearer sk-client' };
    const created = await call(a, 'POST', '/v1/configs', { slug: 'fleet-config', config: { provider: 'openai', custom_host: `${mockA.url}/v1` } });
    expect(created.status, created.text).to.equal(200);
    const first = await chat(b, headers);
    expect(first.status, first.text).to.equal(200);
    expect(mockA.requests).to.have.length(1);
    const changed = await call(a, 'PUT', `/v1/configs/${created.json.id}`, { config: { provider: 'openai', custom_host: `${mockB.url}/v1` } });
    expect(changed.status, changed.text).to.equal(200);
    await within(1000, async () => (await chat(b, headers)).status === 200 && mockB.requests.length > 0);
  });

  it('an integration changed on A is used by B within 1 s, and a deleted one is refused', async () => {
    const body = { slug: 'fleet-acct', provider: 'openai', key: 'sk-fleet-old-0000000', configurations: { custom_host: `${mockA.url}/v1` } };
    expect((await call(a, 'POST', '/v1/integrations', body)).status).to.equal(200);
    await within(1000, async () => (await chat(b, { 'x-gw-provider': '@fleet-acct' })).status === 200);
    expect(mockA.requests.at(-1)!.headers['authorization']).to.equal('Bearer sk-fleet-old-0000000');
    expect((await call(a, 'PUT', '/v1/integrations/fleet-acct', { key: 'sk-fleet-new-1111111' })).status).to.equal(200);
    await within(1000, async () => {
      await chat(b, { 'x-gw-provider': '@fleet-acct' });
      return mockA.requests.at(-1)!.headers['authorization'] === 'Bearer sk-fleet-new-1111111';
    });
    expect((await call(a, 'DELETE', '/v1/integrations/fleet-acct')).status).to.equal(200);
    await within(1000, async () => (await chat(b, { 'x-gw-provider': '@fleet-acct' })).status === 400);
  });

  it('a guardrail changed on A is enforced by B within 1 s', async () => {
    const created = await call(a, 'POST', '/v1/guardrails', {
      name: 'short', slug: 'fleet-short', checks: [{ id: 'default.wordCount', parameters: { maxWords: 1 } }], actions: { deny: true },
    });
    expect(created.status, created.text).to.equal(200);
    const guarded = direct(mockA, { input_guardrails: ['fleet-short'] });
    await within(1000, async () => (await chat(b, guarded, 'two words')).status === 446);
    expect((await call(a, 'PUT', '/v1/guardrails/fleet-short', { checks: [{ id: 'default.wordCount', parameters: { maxWords: 5 } }] })).status).to.equal(200);
    await within(1000, async () => (await chat(b, guarded, 'two words')).status === 200);
  });

  it('a rate-limit policy created on A is enforced by B within 1 s, and its removal too', async () => {
    const metadata = { 'x-gw-metadata': JSON.stringify({ user: 'fleet-rl' }) };
    const created = await call(a, 'POST', '/v1/policies/rate-limits', {
      conditions: [{ key: 'metadata.user', value: 'fleet-rl' }], group_by: [{ key: 'metadata.user' }], type: 'requests', unit: 'rph', value: 1,
    });
    expect(created.status, created.text).to.equal(200);
    await within(1000, async () => (await chat(b, { ...direct(mockA), ...metadata })).status === 429);
    expect((await call(a, 'DELETE', `/v1/policies/rate-limits/${created.json.id}`)).status).to.equal(200);
    await within(1000, async () => (await chat(b, { ...direct(mockA), ...metadata })).status === 200);
  });

  it('a new prompt version stored on A is rendered by B within 1 s', async () => {
    const template = (tone: string) => ({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: `${tone} {{name}}` }] });
    const render = () => call(b, 'POST', '/v1/prompts/fleet-greeting/render', { variables: { name: 'Ada' } });
    expect((await call(a, 'PUT', '/v1/prompts/fleet-greeting', template('Hello'))).status).to.equal(200);
    await within(1000, async () => (await render()).json?.data?.messages?.[0]?.content === 'Hello Ada');
    expect((await call(a, 'PUT', '/v1/prompts/fleet-greeting', template('Goodbye'))).status).to.equal(200);
    await within(1000, async () => (await render()).json.data.messages[0].content === 'Goodbye Ada');
  });

  it('a prompt deleted on A is gone on B within 1 s, and B renders the new version 1 of a re-created one', async () => {
    const template = (tone: string) => ({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: `${tone} {{name}}` }] });
    const pinned = () => call(b, 'POST', '/v1/prompts/fleet-deleted/render', { variables: { name: 'Ada' }, version: 1 });
    expect((await call(a, 'PUT', '/v1/prompts/fleet-deleted', template('Old'))).status).to.equal(200);
    // B caches version 1 (versions are kept without expiry).
    await within(1000, async () => (await pinned()).json?.data?.messages?.[0]?.content === 'Old Ada');
    expect((await call(a, 'DELETE', '/v1/prompts/fleet-deleted')).status).to.equal(200);
    await within(1000, async () => (await pinned()).status === 404);
    expect((await call(a, 'POST', '/v1/prompts', { id: 'fleet-deleted', ...template('New') })).json.version).to.equal(1);
    await within(1000, async () => (await pinned()).json?.data?.messages?.[0]?.content === 'New Ada');
  });

  it('a workspace archived on A refuses its keys on B within 1 s', async () => {
    const workspace = await call(a, 'POST', '/v1/workspaces', { name: 'Fleet team', slug: 'fleet-team' });
    expect(workspace.status, workspace.text).to.equal(200);
    const created = await call(a, 'POST', '/v1/api-keys', { name: 'team', type: 'workspace-service', workspace_id: workspace.json.id });
    expect(created.status, created.text).to.equal(200);
    const key = created.json.key as string;
    await within(1000, async () => (await chat(b, { ...direct(mockA), 'x-gw-api-key': key })).status === 200);
    expect((await call(a, 'DELETE', `/v1/workspaces/${workspace.json.id}`)).status).to.equal(200);
    await within(1000, async () => (await chat(b, { ...direct(mockA), 'x-gw-api-key': key })).status === 401);
  });

  it('publishes on one channel under the key prefix, carrying topics and ids but no secret', async () => {
    const probe = new Redis(url!);
    probe.on('error', () => undefined);
    const messages: string[] = [];
    try {
      await probe.subscribe(`${fleet.prefix}changes`);
      probe.on('message', (_channel: string, text: string) => messages.push(text));
      const created = await call(a, 'POST', '/v1/api-keys', { name: 'watched', type: 'organisation-service' });
      await within(1000, async () => messages.length > 0);
      const parsed = messages.map((m) => JSON.parse(m) as { t: string; o: string });
      expect(parsed.map((m) => m.t)).to.include('api-keys');
      for (const text of messages) expect(text).to.not.include(created.json.key);
    } finally {
      probe.disconnect();
    }
  });
});
