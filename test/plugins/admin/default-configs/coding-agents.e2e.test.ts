/**
 * Coding agents with two environment variables (docs/coding-agents.md): the official SDKs send only
 * a gateway key (Anthropic `authToken` → `Authorization: Bearer`, `apiKey` → `x-api-key`; OpenAI
 * `apiKey` → `Authorization: Bearer`) and no gateway header; the route comes from the key's or its
 * workspace's default config (`default_config_id`), or from `model: "@slug/model"`. The mocks check
 * that the gateway key never reaches a provider. Failure modes: unknown default config (400 at
 * write), deleted default config (400 at request), a bearer that is no gateway key (401, not echoed).
 */
import Anthropic from '@anthropic-ai/sdk';
import { expect } from 'chai';
import OpenAI from 'openai';
import { startAnthropicMock, type MockAnthropic } from '../../../fixtures/mock-anthropic.js';
import { startMockOpenAI, type MockOpenAI, type RecordedRequest } from '../../../fixtures/mock-openai.js';
import { call, postJson, startGateway, TEST_API_KEY, type TestGateway } from '../../../helpers/gateway.js';
import { SECRET_KEY } from '../integrations/harness.js';

const ANTHROPIC_KEY = 'sk-ant-stored-provider-key';
const OPENAI_KEY = 'sk-openai-stored-provider-key';
const INTEGRATION_KEY = 'sk-openai-integration-key';

/** Every header value a mock received, so that a test can say the gateway key is in none of them. */
function headerValues(requests: readonly RecordedRequest[]): string[] {
  return requests.flatMap((r) => Object.values(r.headers).flatMap((v) => (v === undefined ? [] : Array.isArray(v) ? v : [v])));
}

describe('coding agents: a gateway key alone, routed by a default config or @slug/model', () => {
  let anthropic: MockAnthropic;
  let openai: MockOpenAI;
  let gw: TestGateway;
  /** A workspace-service key of the default workspace and its secret. */
  let workspaceKey: { id: string; key: string };
  let nativeId: string;

  const admin = (method: string, path: string, body?: unknown) => call(gw, method, path, body);
  const anthropicSdk = (auth: { authToken: string } | { apiKey: string }) => new Anthropic({
    apiKey: null, authToken: null, ...auth, baseURL: gw.url, maxRetries: 0,
  });
  const openaiSdk = (apiKey: string) => new OpenAI({ apiKey, baseURL: gw.url + '/v1', maxRetries: 0 });
  const ask = (text: string, model = 'claude-mock'): Anthropic.MessageCreateParamsNonStreaming => ({ model, max_tokens: 64, messages: [{ role: 'user', content: text }] });
  const newKey = async (body: Record<string, unknown>) => {
    const res = await admin('POST', '/v1/api-keys', { name: 'agent', type: 'workspace-service', workspace_id: 'default', ...body });
    expect(res.status, res.text).to.equal(200);
    return { id: res.json.id as string, key: res.json.key as string };
  };

  before(async () => {
    [anthropic, openai] = await Promise.all([startAnthropicMock(), startMockOpenAI()]);
    gw = await startGateway({ env: { GW_SECRET_KEY: SECRET_KEY } });
    // Stored configs hold no credentials: they name integrations, which hold the provider keys.
    for (const [slug, provider, key, host] of [
      ['claude', 'anthropic', ANTHROPIC_KEY, `${anthropic.url}/v1`],
      ['openai-main', 'openai', OPENAI_KEY, `${openai.url}/v1`],
      ['team-openai', 'openai', INTEGRATION_KEY, `${openai.url}/v1`],
    ] as const) {
      const made = await admin('POST', '/v1/integrations', { slug, provider, key, configurations: { custom_host: host } });
      expect(made.status, made.text).to.equal(200);
    }
    const native = await admin('POST', '/v1/configs', { slug: 'claude-native', config: { provider: '@claude' } });
    expect(native.status, native.text).to.equal(200);
    nativeId = native.json.id;
    const viaChat = await admin('POST', '/v1/configs', { slug: 'claude-via-openai', config: { provider: '@openai-main' } });
    expect(viaChat.status, viaChat.text).to.equal(200);
    workspaceKey = await newKey({ name: 'workspace default' });
  });
  after(async () => {
    await gw?.stop();
    await Promise.all([anthropic?.close(), openai?.close()]);
  });
  beforeEach(() => {
    anthropic.reset();
    openai.reset();
  });

  describe('the Anthropic SDK (Claude Code) with only the gateway key', () => {
    it('authToken (Authorization: Bearer) with the key\'s default config: natively to Anthropic, create and stream', async () => {
      const agent = await newKey({ default_config_id: 'claude-native' });
      expect((await admin('GET', `/v1/api-keys/${agent.id}`)).json.default_config_id).to.equal(nativeId);
      const client = anthropicSdk({ authToken: agent.key });
      const message = await client.messages.create(ask('hi'));
      expect(message.content).to.deep.equal([{ type: 'text', text: 'echo: hi' }]);
      let text = '';
      const stream = client.messages.stream(ask('stream me'));
      stream.on('text', (delta) => (text += delta));
      await stream.finalMessage();
      expect(text).to.equal('echo: stream me');
      expect(anthropic.requests).to.have.length(2);
      for (const request of anthropic.requests) {
        expect(request.headers['x-api-key']).to.equal(ANTHROPIC_KEY);
        expect(request.headers['authorization']).to.equal(undefined);
      }
      expect(headerValues(anthropic.requests).join('\n')).to.not.contain(agent.key);
    });

    it('apiKey (x-api-key) with the key\'s default config: translated to an OpenAI-format provider', async () => {
      const agent = await newKey({ default_config_id: 'claude-via-openai' });
      const message = await anthropicSdk({ apiKey: agent.key }).messages.create(ask('hello'));
      expect(message.type).to.equal('message');
      expect(message.content).to.deep.equal([{ type: 'text', text: 'echo: hello' }]);
      expect(openai.requests).to.have.length(1);
      expect(openai.requests[0]!.headers['authorization']).to.equal(`Bearer ${OPENAI_KEY}`);
      expect(openai.requests[0]!.headers['x-api-key']).to.equal(undefined);
      expect(headerValues(openai.requests).join('\n')).to.not.contain(agent.key);
    });

    it('follows a change of the key\'s default config at once (no stale cached caller)', async () => {
      const agent = await newKey({ default_config_id: 'claude-native' });
      const client = anthropicSdk({ authToken: agent.key });
      await client.messages.create(ask('one'));
      expect((await admin('PUT', `/v1/api-keys/${agent.id}`, { default_config_id: 'claude-via-openai' })).status).to.equal(200);
      await client.messages.create(ask('two'));
      expect((await admin('PUT', `/v1/api-keys/${agent.id}`, { default_config_id: null })).json.default_config_id).to.equal(null);
      const none = await client.messages.create(ask('three')).catch((e: unknown) => e);
      expect((none as InstanceType<typeof Anthropic.APIError>).status).to.equal(400);
      expect([anthropic.requests.length, openai.requests.length]).to.deep.equal([1, 1]);
    });

    it('the key\'s default config wins over its workspace\'s', async () => {
      expect((await admin('PUT', '/v1/workspaces/default', { default_config_id: 'claude-via-openai' })).status).to.equal(200);
      try {
        const agent = await newKey({ default_config_id: 'claude-native' });
        await anthropicSdk({ authToken: agent.key }).messages.create(ask('which'));
        expect(anthropic.requests).to.have.length(1);
        expect(openai.requests).to.have.length(0);
      } finally {
        await admin('PUT', '/v1/workspaces/default', { default_config_id: null });
      }
    });
  });

  describe('the OpenAI SDK with only the gateway key', () => {
    it('follows the workspace\'s default config (a key without its own)', async () => {
      const put = await admin('PUT', '/v1/workspaces/default', { default_config_id: 'claude-via-openai' });
      expect(put.status, put.text).to.equal(200);
      expect(put.json.default_config_id).to.be.a('string');
      try {
        const answer = await openaiSdk(workspaceKey.key).chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }] });
        expect(answer.object).to.equal('chat.completion');
        expect(openai.requests).to.have.length(1);
        expect(openai.requests[0]!.headers['authorization']).to.equal(`Bearer ${OPENAI_KEY}`);
        expect(headerValues(openai.requests).join('\n')).to.not.contain(workspaceKey.key);
      } finally {
        expect((await admin('PUT', '/v1/workspaces/default', { default_config_id: null })).json.default_config_id).to.equal(null);
      }
    });

    it('without any default config, a key alone gets the usual "no config" 400', async () => {
      const res = await postJson(gw.url, '/v1/chat/completions', { model: 'm', messages: [{ role: 'user', content: 'x' }] }, {
        'content-type': 'application/json', authorization: `Bearer ${workspaceKey.key}`,
      });
      expect(res.status, res.text).to.equal(400);
      expect(res.text).to.not.contain(workspaceKey.key);
    });
  });

  describe('model: "@slug/model"', () => {
    it('routes to the integration with the plain model, stored key, no config', async () => {
      const answer = await openaiSdk(workspaceKey.key).chat.completions.create({ model: '@team-openai/gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }] });
      expect(answer.object).to.equal('chat.completion');
      expect(openai.requests).to.have.length(1);
      expect(openai.requests[0]!.body.model).to.equal('gpt-4o-mini');
      expect(openai.requests[0]!.headers['authorization']).to.equal(`Bearer ${INTEGRATION_KEY}`);
    });

    it('wins over a default config (it names the route), and works on /v1/messages', async () => {
      const agent = await newKey({ default_config_id: 'claude-native' });
      const message = await anthropicSdk({ authToken: agent.key }).messages.create(ask('via slug', '@team-openai/gpt-4o'));
      expect(message.content).to.deep.equal([{ type: 'text', text: 'echo: via slug' }]);
      expect(anthropic.requests).to.have.length(0);
      expect(openai.requests[0]!.body.model).to.equal('gpt-4o');
      expect(openai.requests[0]!.headers['authorization']).to.equal(`Bearer ${INTEGRATION_KEY}`);
    });

    it('natively to Anthropic, the provider sees the plain model (the body is re-written, not sent as the client\'s bytes)', async () => {
      const message = await anthropicSdk({ authToken: workspaceKey.key }).messages.create(ask('native slug', '@claude/claude-mock'));
      expect(message.content).to.deep.equal([{ type: 'text', text: 'echo: native slug' }]);
      expect(anthropic.requests).to.have.length(1);
      expect(anthropic.requests[0]!.body.model).to.equal('claude-mock');
      expect(anthropic.requests[0]!.rawBody).to.not.contain('@claude');
      expect(anthropic.requests[0]!.headers['x-api-key']).to.equal(ANTHROPIC_KEY);
    });

    it('keeps config settings sent beside it, and refuses a config that routes by itself', async () => {
      const withRetry = await postJson(gw.url, '/v1/chat/completions', { model: '@team-openai/gpt-4o-mini', messages: [{ role: 'user', content: 'x' }] }, {
        'content-type': 'application/json', 'x-gw-api-key': TEST_API_KEY, 'x-gw-config': JSON.stringify({ retry: { attempts: 2 } }),
      });
      expect(withRetry.status, withRetry.text).to.equal(200);
      const routed = await postJson(gw.url, '/v1/chat/completions', { model: '@team-openai/gpt-4o-mini', messages: [{ role: 'user', content: 'x' }] }, {
        'content-type': 'application/json', 'x-gw-api-key': TEST_API_KEY, 'x-gw-config': 'claude-native',
      });
      expect(routed.status).to.equal(400);
      expect(routed.json.error.param).to.equal('model');
      expect(routed.json.error.message).to.contain('@team-openai').and.contain('name one route');
    });

    it('answers 400 for an unknown integration or an empty part', async () => {
      const unknown = await openaiSdk(workspaceKey.key).chat.completions.create({ model: '@nobody/gpt-4o', messages: [{ role: 'user', content: 'x' }] }).catch((e: unknown) => e);
      expect(unknown).to.be.instanceOf(OpenAI.APIError);
      expect((unknown as InstanceType<typeof OpenAI.APIError>).status).to.equal(400);
      expect((unknown as InstanceType<typeof OpenAI.APIError>).message).to.contain('no integration "@nobody"');
      const empty = await postJson(gw.url, '/v1/chat/completions', { model: '@team-openai/', messages: [{ role: 'user', content: 'x' }] }, {
        'content-type': 'application/json', authorization: `Bearer ${workspaceKey.key}`,
      });
      expect(empty.status).to.equal(400);
      expect(empty.json.error.message).to.contain('body.model');
      expect(openai.requests).to.have.length(0);
    });
  });

  describe('failure modes', () => {
    it('refuses an unknown default config at write: key create, key update, workspace update', async () => {
      const create = await admin('POST', '/v1/api-keys', { name: 'x', type: 'workspace-service', workspace_id: 'default', default_config_id: 'no-such-config' });
      expect(create.status).to.equal(400);
      expect(create.json.error.param).to.equal('default_config_id');
      expect(create.json.error.message).to.contain('no stored config "no-such-config"');
      const update = await admin('PUT', `/v1/api-keys/${workspaceKey.id}`, { default_config_id: 'no-such-config' });
      expect(update.status).to.equal(400);
      expect(update.json.error.param).to.equal('default_config_id');
      const workspace = await admin('PUT', '/v1/workspaces/default', { default_config_id: 'no-such-config' });
      expect(workspace.status).to.equal(400);
      expect(workspace.json.error.param).to.equal('default_config_id');
      const wrongType = await admin('PUT', `/v1/api-keys/${workspaceKey.id}`, { default_config_id: 42 });
      expect(wrongType.status).to.equal(400);
      expect(wrongType.json.error.message).to.contain('default_config_id');
    });

    it('refuses another workspace\'s config as a default', async () => {
      const other = await admin('POST', '/v1/workspaces', { name: 'Other team' });
      expect(other.status, other.text).to.equal(200);
      const theirs = await admin('POST', '/v1/configs', { slug: 'theirs', workspace_id: other.json.id, config: { provider: '@openai-main' } });
      expect(theirs.status, theirs.text).to.equal(200);
      const res = await admin('PUT', `/v1/api-keys/${workspaceKey.id}`, { default_config_id: 'theirs' });
      expect(res.status).to.equal(400);
      expect(res.json.error.message).to.contain('another workspace');
    });

    it('answers a clear 400 when the default config was deleted after it was set', async () => {
      const made = await admin('POST', '/v1/configs', { slug: 'short-lived', config: { provider: '@openai-main' } });
      const agent = await newKey({ default_config_id: 'short-lived' });
      expect((await admin('DELETE', `/v1/configs/${made.json.id}`)).status).to.equal(200);
      const error = await anthropicSdk({ authToken: agent.key }).messages.create(ask('gone')).catch((e: unknown) => e);
      expect(error).to.be.instanceOf(Anthropic.APIError);
      const apiError = error as InstanceType<typeof Anthropic.APIError>;
      expect(apiError.status).to.equal(400);
      const body = apiError.error as { error: { message: string } };
      expect(body.error.message).to.contain(`API key's default config "${made.json.id}" no longer exists`);
      expect(openai.requests).to.have.length(0);
    });

    it('answers 401 for a bearer or x-api-key that is not a gateway key, without echoing it', async () => {
      for (const headers of [{ authorization: 'Bearer sk-ant-someone-elses-key-123' }, { 'x-api-key': 'sk-ant-someone-elses-key-123' }] as Record<string, string>[]) {
        const res = await postJson(gw.url, '/v1/messages', ask('x'), { 'content-type': 'application/json', ...headers });
        expect(res.status, res.text).to.equal(401);
        expect(res.text).to.not.contain('sk-ant-someone-elses-key-123');
        expect(res.json.error.message).to.contain('not a known gateway key');
      }
      const none = await postJson(gw.url, '/v1/messages', ask('x'), { 'content-type': 'application/json' });
      expect(none.status).to.equal(401);
      expect(none.json.error.message).to.contain('x-api-key');
      expect(anthropic.requests).to.have.length(0);
    });

    it('keeps direct mode: beside x-gw-api-key, Authorization is the provider\'s key', async () => {
      const res = await postJson(gw.url, '/v1/chat/completions', { model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'x' }] }, {
        'content-type': 'application/json', 'x-gw-api-key': TEST_API_KEY, 'x-gw-provider': 'openai',
        'x-gw-custom-host': `${openai.url}/v1`, authorization: 'Bearer sk-direct-provider-key',
      });
      expect(res.status, res.text).to.equal(200);
      expect(openai.requests[0]!.headers['authorization']).to.equal('Bearer sk-direct-provider-key');
    });
  });

  describe('without identity.jwt: auth.api-key itself takes the key from Authorization or x-api-key', () => {
    let bare: TestGateway;
    before(async () => {
      bare = await startGateway({ composition: { plugins: [], disable: ['identity.jwt'] }, env: { GW_SECRET_KEY: SECRET_KEY } });
      for (const [slug, provider, key, host] of [['claude', 'anthropic', ANTHROPIC_KEY, `${anthropic.url}/v1`]] as const) {
        expect((await call(bare, 'POST', '/v1/integrations', { slug, provider, key, configurations: { custom_host: host } })).status).to.equal(200);
      }
      expect((await call(bare, 'POST', '/v1/configs', { slug: 'claude-native', config: { provider: '@claude' } })).status).to.equal(200);
    });
    after(async () => {
      await bare?.stop();
    });

    it('routes the Anthropic SDK by the key\'s default config and keeps the key from the provider', async () => {
      const made = await call(bare, 'POST', '/v1/api-keys', { name: 'agent', type: 'workspace-service', workspace_id: 'default', default_config_id: 'claude-native' });
      expect(made.status, made.text).to.equal(200);
      for (const auth of [{ authToken: made.json.key as string }, { apiKey: made.json.key as string }]) {
        const client = new Anthropic({ apiKey: null, authToken: null, ...auth, baseURL: bare.url, maxRetries: 0 });
        const message = await client.messages.create(ask('bare'));
        expect(message.content).to.deep.equal([{ type: 'text', text: 'echo: bare' }]);
      }
      expect(anthropic.requests.map((r) => r.headers['x-api-key'])).to.deep.equal([ANTHROPIC_KEY, ANTHROPIC_KEY]);
      expect(headerValues(anthropic.requests).join('\n')).to.not.contain(made.json.key);
      const wrong = await postJson(bare.url, '/v1/messages', ask('x'), { 'content-type': 'application/json', authorization: 'Bearer not-a-gateway-key-987' });
      expect(wrong.status).to.equal(401);
      expect(wrong.text).to.not.contain('not-a-gateway-key-987');
    });
  });
});
