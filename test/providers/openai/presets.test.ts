/** The OpenAI-compatible presets: each one's URL and auth (no network), their target rules, and one through the gateway. */
import { expect } from 'chai';
import type { AdapterInput, ConfigNode } from '../../../core/index.js';
import { createOpenAIAdapter } from '../../../providers/openai/adapter.js';
import { OPENAI_COMPATIBLE_PRESETS } from '../../../providers/openai/presets.js';
import { startMockOpenAI, type MockOpenAI } from '../../fixtures/mock-openai.js';
import { CHAT_BODY, configHeaders, postJson, startGateway, type TestGateway } from '../../helpers/gateway.js';

const EXPECTED: Record<string, { chat?: string; auth: 'bearer' | 'none' }> = {
  groq: { chat: 'https://api.groq.com/openai/v1/chat/completions', auth: 'bearer' },
  'together-ai': { chat: 'https://api.together.xyz/v1/chat/completions', auth: 'bearer' },
  'mistral-ai': { chat: 'https://api.mistral.ai/v1/chat/completions', auth: 'bearer' },
  deepseek: { chat: 'https://api.deepseek.com/chat/completions', auth: 'bearer' },
  'fireworks-ai': { chat: 'https://api.fireworks.ai/inference/v1/chat/completions', auth: 'bearer' },
  openrouter: { chat: 'https://openrouter.ai/api/v1/chat/completions', auth: 'bearer' },
  'perplexity-ai': { chat: 'https://api.perplexity.ai/chat/completions', auth: 'bearer' },
  'x-ai': { chat: 'https://api.x.ai/v1/chat/completions', auth: 'bearer' },
  ollama: { chat: 'http://127.0.0.1:11434/v1/chat/completions', auth: 'none' },
  vllm: { auth: 'none' },
};

function input(target: ConfigNode): AdapterInput {
  const body = { model: 'm', messages: [] };
  return { attempt: { ctx: { request: { body } } }, target, body, stream: false } as unknown as AdapterInput;
}

describe('openai-compatible presets', () => {
  it('lists exactly the documented hosts', () => {
    expect(OPENAI_COMPATIBLE_PRESETS.map((p) => p.id)).to.deep.equal(Object.keys(EXPECTED));
  });

  for (const preset of OPENAI_COMPATIBLE_PRESETS) {
    const expected = EXPECTED[preset.id]!;
    describe(preset.id, () => {
      const adapter = createOpenAIAdapter(preset.id, preset.baseUrl ?? null, { requiresKey: preset.auth === 'bearer' });

      it(`auth style ${expected.auth}`, () => expect(preset.auth).to.equal(expected.auth));

      if (expected.chat) {
        it('builds its default URL, with the key as a bearer token', async () => {
          const request = await adapter.endpoints['chatComplete']!.request(input({ provider: preset.id, api_key: 'key-1' }));
          expect(request.url).to.equal(expected.chat);
          expect(request.headers['authorization']).to.equal('Bearer key-1');
        });
      }

      it('keeps its paths below custom_host', async () => {
        const request = await adapter.endpoints['embed']!.request(input({ provider: preset.id, custom_host: 'http://10.0.0.2:8000/v1/' }));
        expect(request.url).to.equal('http://10.0.0.2:8000/v1/embeddings');
        expect(request.headers['authorization']).to.equal(undefined);
      });

      it('checks its targets', () => {
        const issues = adapter.validateTarget!({ provider: preset.id }, 'targets.0');
        if (!preset.baseUrl) expect(issues).to.deep.equal([{ path: 'targets.0.custom_host', rule: `is required for provider "${preset.id}" (it has no public host)` }]);
        else if (preset.auth === 'bearer') expect(issues).to.deep.equal([{ path: 'targets.0.api_key', rule: `is required for provider "${preset.id}" (or set custom_host)` }]);
        else expect(issues).to.deep.equal([]);
        expect(adapter.validateTarget!({ provider: preset.id, custom_host: 'http://h/v1' }, '')).to.deep.equal([]);
      });
    });
  }
});

describe('openai-compatible presets through the gateway', () => {
  let mock: MockOpenAI;
  let gw: TestGateway;
  before(async () => {
    mock = await startMockOpenAI({ requireAuth: false });
    gw = await startGateway();
  });
  after(async () => {
    await gw?.stop();
    await mock?.close();
  });
  beforeEach(() => mock.reset());

  it('are registered by provider.openai and answer under their own id', async () => {
    const reply = await postJson(gw.url, '/v1/chat/completions', CHAT_BODY, configHeaders({ provider: 'groq', api_key: 'gsk-1', custom_host: `${mock.url}/v1` }));
    expect(reply.status).to.equal(200);
    expect(reply.headers.get('x-gw-provider')).to.equal('groq');
    expect(mock.requests[0]!.headers['authorization']).to.equal('Bearer gsk-1');
  });

  for (const id of ['perplexity-ai', 'x-ai']) {
    it(`${id} reaches its mock through custom_host, plain and streamed, with the key as a bearer token`, async () => {
      const headers = configHeaders({ provider: id, api_key: `${id}-key`, custom_host: `${mock.url}/v1` });
      const reply = await postJson(gw.url, '/v1/chat/completions', CHAT_BODY, headers);
      expect(reply.status).to.equal(200);
      expect(reply.headers.get('x-gw-provider')).to.equal(id);
      expect(reply.json.choices[0].message.content).to.be.a('string').and.not.equal('');
      const streamed = await postJson(gw.url, '/v1/chat/completions', { ...CHAT_BODY, stream: true }, headers);
      expect(streamed.status).to.equal(200);
      expect(streamed.text.trimEnd().endsWith('data: [DONE]')).to.equal(true);
      expect(mock.requests.map((r) => [r.path, r.headers['authorization']])).to.deep.equal([
        ['/v1/chat/completions', `Bearer ${id}-key`], ['/v1/chat/completions', `Bearer ${id}-key`],
      ]);
    });

    it(`${id} without a key is refused when the config is read, naming api_key`, async () => {
      const refused = await postJson(gw.url, '/v1/chat/completions', CHAT_BODY, configHeaders({ strategy: { mode: 'single' }, targets: [{ provider: id }] }));
      expect(refused.status).to.equal(400);
      expect(refused.json.error.message).to.equal(`config.targets.0.api_key: is required for provider "${id}" (or set custom_host)`);
      expect(mock.requests).to.have.length(0);
    });
  }

  it('a keyless host (ollama) sends no Authorization; vllm without custom_host is refused', async () => {
    const ollama = { strategy: { mode: 'single' }, targets: [{ provider: 'ollama', custom_host: `${mock.url}/v1` }] };
    const reply = await postJson(gw.url, '/v1/chat/completions', CHAT_BODY, configHeaders(ollama));
    expect(reply.status).to.equal(200);
    expect(mock.requests[0]!.headers['authorization']).to.equal(undefined);
    const vllm = { strategy: { mode: 'single' }, targets: [{ provider: 'vllm' }] };
    const refused = await postJson(gw.url, '/v1/chat/completions', CHAT_BODY, configHeaders(vllm));
    expect(refused.status).to.equal(400);
    expect(refused.json.error.message).to.equal('config.targets.0.custom_host: is required for provider "vllm" (it has no public host)');
  });
});
