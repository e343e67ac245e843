/** The Vertex adapter's requests (URLs, auth, Claude bodies) and its target rules, without a network. */
import { expect } from 'chai';
import { GatewayError, type AdapterInput, type Attempt, type ConfigNode, type EndpointDef, type Target } from '../../../core/index.js';
import { createAnthropicAdapter } from '../../../providers/anthropic/adapter.js';
import { createVertexAdapter } from '../../../providers/vertex-ai/adapter.js';
import { serviceAccount } from './service-account.js';

const SA = serviceAccount('https://oauth2.googleapis.com/token');
const REGIONAL: ConfigNode = { provider: 'vertex-ai', cloudC_region: 'us-central1', cloudC_project_id: 'my-project', cloudC_service_account_json: SA };

function adapterWith(tokens: string[] = []) {
  const anthropic = createAnthropicAdapter({ defaultMaxTokens: 4096 });
  return createVertexAdapter({
    tokens: { token: async (sa) => { tokens.push(sa.client_email); return 'ya29.minted'; } },
    anthropic: () => anthropic,
  });
}

function inputFor(target: ConfigNode, body: Record<string, unknown>, stream = false): AdapterInput {
  const t = Object.defineProperty({ ...target }, '$path', { value: 'config' }) as Target;
  const attempt = { signal: new AbortController().signal, ctx: { request: { body } }, target: t, body, headers: {}, stream, retry: 0 } as unknown as Attempt;
  return { attempt, target: t, endpoint: { id: 'chatComplete' } as EndpointDef, body, stream };
}

const chat = (model: string, extra: Record<string, unknown> = {}) => ({ model, messages: [{ role: 'user', content: 'hi' }], ...extra });

async function build(target: ConfigNode, body: Record<string, unknown>, stream = false) {
  return adapterWith().endpoints['chatComplete']!.request(inputFor(target, body, stream));
}

describe('vertex-ai adapter requests', () => {
  it('calls the regional endpoint of the project with a minted Bearer token', async () => {
    const minted: string[] = [];
    const request = await adapterWith(minted).endpoints['chatComplete']!.request(inputFor(REGIONAL, chat('gemini-2.0-flash-001')));
    expect(request.url).to.equal('https://us-central1-aiplatform.googleapis.com/v1/projects/my-project/locations/us-central1/publishers/google/models/gemini-2.0-flash-001:generateContent');
    expect(request.method).to.equal('POST');
    expect(request.headers).to.deep.equal({ 'content-type': 'application/json', authorization: 'Bearer ya29.minted' });
    expect(minted).to.deep.equal([SA['client_email']]);
    expect(JSON.parse(String(request.body))).to.deep.equal({ contents: [{ role: 'user', parts: [{ text: 'hi' }] }] });
  });

  it('uses the host without a region prefix for region global', async () => {
    const request = await build({ ...REGIONAL, cloudC_region: 'global' }, chat('gemini-2.5-pro'));
    expect(request.url).to.equal('https://aiplatform.googleapis.com/v1/projects/my-project/locations/global/publishers/google/models/gemini-2.5-pro:generateContent');
  });

  it('streams through streamGenerateContent with alt=sse', async () => {
    const request = await build(REGIONAL, chat('gemini-2.0-flash', { stream: true }), true);
    expect(request.url).to.match(/\/models\/gemini-2\.0-flash:streamGenerateContent\?alt=sse$/);
  });

  it('keeps its path layout below custom_host and takes the project from the key file', async () => {
    const { cloudC_project_id: _p, ...noProject } = REGIONAL;
    const request = await build({ ...noProject, custom_host: 'http://proxy.internal:8080/v1/' }, chat('gemini-2.0-flash'));
    expect(request.url).to.equal('http://proxy.internal:8080/v1/projects/gw-test-project/locations/us-central1/publishers/google/models/gemini-2.0-flash:generateContent');
  });

  it('sends api_key as the access token when there is no service account', async () => {
    const minted: string[] = [];
    const { cloudC_service_account_json: _sa, ...tokenOnly } = REGIONAL;
    const request = await adapterWith(minted).endpoints['chatComplete']!.request(inputFor({ ...tokenOnly, api_key: 'ya29.given' }, chat('gemini-2.0-flash')));
    expect(request.headers['authorization']).to.equal('Bearer ya29.given');
    expect(minted).to.deep.equal([]);
  });

  it('prefers the service account over an api_key (an SDK client sends its own key as Authorization)', async () => {
    const request = await build({ ...REGIONAL, api_key: 'sk-x' }, chat('gemini-2.0-flash'));
    expect(request.headers['authorization']).to.equal('Bearer ya29.minted');
  });

  it('refuses a model id that would change the URL path', async () => {
    for (const model of ['../../other', 'gemini?alt=x', 'a/b', '']) {
      try {
        await build(REGIONAL, chat(model));
        expect.fail(`accepted ${model}`);
      } catch (e) {
        expect(e).to.be.instanceOf(GatewayError);
        expect((e as GatewayError).status).to.equal(400);
        expect((e as GatewayError).param).to.equal('model');
      }
    }
  });

  describe('Claude on Vertex', () => {
    it('posts the Anthropic Messages body to rawPredict without model and with the Vertex anthropic_version', async () => {
      const request = await build(REGIONAL, chat('claude-3-5-sonnet-v2@20241022', { max_tokens: 50, messages: [{ role: 'system', content: 'be brief' }, { role: 'user', content: 'hi' }] }));
      expect(request.url).to.equal('https://us-central1-aiplatform.googleapis.com/v1/projects/my-project/locations/us-central1/publishers/anthropic/models/claude-3-5-sonnet-v2@20241022:rawPredict');
      expect(request.headers).to.deep.equal({ 'content-type': 'application/json', authorization: 'Bearer ya29.minted' });
      const body = JSON.parse(String(request.body));
      expect(body).to.not.have.property('model');
      expect(body.anthropic_version).to.equal('vertex-2023-10-16');
      expect(body.max_tokens).to.equal(50);
      expect(body.system).to.exist;
      expect(body.messages).to.deep.equal([{ role: 'user', content: 'hi' }]);
    });

    it('streams through streamRawPredict with stream: true in the body', async () => {
      const request = await build({ ...REGIONAL, cloudC_region: 'global' }, chat('claude-sonnet-4@20250514', { stream: true }), true);
      expect(request.url).to.equal('https://aiplatform.googleapis.com/v1/projects/my-project/locations/global/publishers/anthropic/models/claude-sonnet-4@20250514:streamRawPredict');
      expect(JSON.parse(String(request.body)).stream).to.equal(true);
    });

    it('never sends an x-api-key, even with an api_key token', async () => {
      const { cloudC_service_account_json: _sa, ...tokenOnly } = REGIONAL;
      const request = await build({ ...tokenOnly, api_key: 'ya29.given' }, chat('claude-3-haiku@20240307'));
      expect(request.headers).to.deep.equal({ 'content-type': 'application/json', authorization: 'Bearer ya29.given' });
    });

    it('answers 503 for Claude models when no anthropic provider is registered', async () => {
      const adapter = createVertexAdapter({ tokens: { token: async () => 't' }, anthropic: () => undefined });
      try {
        await adapter.endpoints['chatComplete']!.request(inputFor(REGIONAL, chat('claude-3-haiku@20240307')));
        expect.fail('expected a refusal');
      } catch (e) {
        expect((e as GatewayError).status).to.equal(503);
      }
    });
  });
});

describe('vertex-ai target rules', () => {
  const rules = (target: ConfigNode, path = '') => adapterWith().validateTarget!(target, path);

  it('accepts a service account with a region, and a token with region and project', () => {
    const { cloudC_project_id: _p, ...fromKeyFile } = REGIONAL;
    expect(rules(fromKeyFile)).to.deep.equal([]);
    expect(rules({ provider: 'vertex-ai', cloudC_region: 'global', cloudC_project_id: 'p-1', api_key: 'ya29.x' })).to.deep.equal([]);
    expect(rules({ provider: 'vertex-ai', cloudC_region: 'europe-west4', cloudC_project_id: 'p-1', custom_host: 'http://proxy/v1' })).to.deep.equal([]);
  });

  it('requires a region, and only a plain region name', () => {
    const { cloudC_region: _r, ...noRegion } = REGIONAL;
    expect(rules(noRegion, 'targets.1')).to.deep.equal([{ path: 'targets.1.cloudC_region', rule: 'is required for provider "vertex-ai" (e.g. "us-central1" or "global")' }]);
    for (const region of ['evil.com#', 'us-central1.attacker.net', 'US-CENTRAL1', '']) {
      expect(rules({ ...REGIONAL, cloudC_region: region })[0]!.path).to.equal('cloudC_region');
    }
  });

  it('requires a service account or an access token', () => {
    const { cloudC_service_account_json: _sa, ...bare } = REGIONAL;
    expect(rules(bare)).to.deep.equal([{ path: 'cloudC_service_account_json', rule: 'or api_key (an access token) is required for provider "vertex-ai"' }]);
  });

  it('requires a project from cloudC_project_id or the key file', () => {
    const { project_id: _p, ...keyWithoutProject } = SA;
    expect(rules({ provider: 'vertex-ai', cloudC_region: 'us-central1', cloudC_service_account_json: keyWithoutProject })).to.deep.equal([
      { path: 'cloudC_project_id', rule: 'is required for provider "vertex-ai" unless cloudC_service_account_json has project_id' },
    ]);
    expect(rules({ ...REGIONAL, cloudC_project_id: 'a/b' })[0]!.path).to.equal('cloudC_project_id');
  });

  it('checks the key file fields it needs, cheaply', () => {
    const issues = rules({ ...REGIONAL, cloudC_service_account_json: { client_email: '', private_key: 'nope', token_uri: 'file:///etc/passwd' } }, 'targets.0');
    expect(issues.map((i) => i.path)).to.deep.equal([
      'targets.0.cloudC_service_account_json.client_email',
      'targets.0.cloudC_service_account_json.private_key',
      'targets.0.cloudC_service_account_json.token_uri',
    ]);
  });
});
