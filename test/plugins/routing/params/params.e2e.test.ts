/** route.params end to end: what the provider receives, inheritance, config errors. */
import { expect } from 'chai';
import ParamsPlugin from '../../../../plugins/routing/params/index.js';
import FallbackStrategy from '../../../../plugins/strategies/fallback/index.js';
import { configHeaders, directHeaders, postJson, type TestGateway, startGateway } from '../../../helpers/gateway.js';
import { startMockOpenAI, type MockOpenAI } from '../../../fixtures/mock-openai.js';

const CHAT = '/v1/chat/completions';

const clientBody = () => ({
  model: 'gpt-4o-mini',
  temperature: 0.7,
  messages: [
    { role: 'system', content: 'be brief', name: 'sys' },
    { role: 'user', content: 'hi', name: 'alice' },
  ],
});

describe('route.params (end to end)', () => {
  let gw: TestGateway;
  let mock: MockOpenAI;
  const openai = () => ({ provider: 'openai', api_key: 'sk-test', custom_host: `${mock.url}/v1` });

  before(async () => {
    mock = await startMockOpenAI();
    gw = await startGateway({ plugins: [ParamsPlugin] });
  });
  after(async () => {
    await gw?.stop();
    await mock?.close();
  });
  beforeEach(() => mock.reset());

  it('applies override, then default, then drop to the body the provider receives', async () => {
    const config = {
      ...openai(),
      override_params: { temperature: 0.1, model: 'gpt-forced', response_format: { type: 'json_object' } },
      default_params: { temperature: 1.5, max_tokens: 32 },
      drop_params: ['messages.0.name', 'messages.1.name', 'response_format'],
    };
    const res = await postJson(gw.url, CHAT, clientBody(), configHeaders(config));
    expect(res.status, res.text).to.equal(200);
    expect(mock.requests[0]!.body).to.deep.equal({
      model: 'gpt-forced',
      temperature: 0.1,
      max_tokens: 32,
      messages: [{ role: 'system', content: 'be brief' }, { role: 'user', content: 'hi' }],
    });
  });

  it('sends the client bytes unchanged when no setting applies', async () => {
    const text = '{"model":"gpt-4o-mini",  "messages":[{"role":"user","content":"h\\u00e9"}], "temperature":0.5}';
    const config = { ...openai(), default_params: { temperature: 1 }, drop_params: ['tools.3', 'nope.x'] };
    const res = await postJson(gw.url, CHAT, text, configHeaders(config));
    expect(res.status, res.text).to.equal(200);
    expect(mock.requests[0]!.rawBody).to.equal(text);
  });

  it('out-of-range indices and missing paths are no-ops', async () => {
    const config = { ...openai(), drop_params: ['messages.7', 'messages.1.nope', 'tools.0', 'a.b.c'] };
    const res = await postJson(gw.url, CHAT, clientBody(), configHeaders(config));
    expect(res.status, res.text).to.equal(200);
    expect(mock.requests[0]!.body).to.deep.equal(clientBody());
  });

  it('takes drop_params from the x-gw-drop-params header in direct mode', async () => {
    const res = await postJson(gw.url, CHAT, clientBody(), directHeaders(mock, { 'x-gw-drop-params': 'temperature, messages.1' }));
    expect(res.status, res.text).to.equal(200);
    expect(mock.requests[0]!.body).to.deep.equal({ model: 'gpt-4o-mini', messages: [clientBody().messages[0]] });
  });

  it('children inherit params from their parents; a child setting replaces the parent\'s whole object', async () => {
    const config = {
      strategy: { mode: 'single' },
      override_params: { temperature: 0.3, seed: 11 },
      default_params: { max_tokens: 5 },
      targets: [{
        strategy: { mode: 'single' },
        drop_params: ['messages.0'],
        targets: [{ ...openai(), override_params: { seed: 22 } }],
      }],
    };
    const res = await postJson(gw.url, CHAT, clientBody(), configHeaders(config));
    expect(res.status, res.text).to.equal(200);
    expect(res.headers.get('x-gw-last-used-option-index')).to.equal('config.targets[0].targets[0]');
    // seed from the leaf's own override (the parent's temperature override is replaced with it),
    // max_tokens from the root's default, the drop from the middle node.
    expect(mock.requests[0]!.body).to.deep.equal({
      model: 'gpt-4o-mini',
      temperature: 0.7,
      seed: 22,
      max_tokens: 5,
      messages: [clientBody().messages[1]],
    });
  });

  it('two targets of a fallback each shape the original client body', async function () {
    const other = await startMockOpenAI();
    const local = await startGateway({ plugins: [ParamsPlugin, FallbackStrategy] });
    try {
      mock.next({ status: 503 });
      const config = {
        strategy: { mode: 'fallback', on_status_codes: [503] },
        targets: [
          { ...openai(), override_params: { temperature: 0 }, drop_params: ['messages.0', 'messages.0.name', 'temperature'] },
          { provider: 'openai', api_key: 'sk-b', custom_host: `${other.url}/v1`, default_params: { seed: 1 } },
        ],
      };
      const res = await postJson(local.url, CHAT, clientBody(), configHeaders(config));
      expect(res.status, res.text).to.equal(200);
      // Indices refer to the client body: messages.0.name goes with messages.0; alice keeps her name.
      expect(mock.requests[0]!.body).to.deep.equal({ model: 'gpt-4o-mini', messages: [clientBody().messages[1]] });
      expect(other.requests[0]!.body).to.deep.equal({ ...clientBody(), seed: 1 });
    } finally {
      await local.stop();
      await other.close();
    }
  });

  describe('config errors (400 before any provider call)', () => {
    const cases: Array<[string, Record<string, unknown>, string]> = [
      ['an empty segment', { drop_params: ['messages.0.name', 'a..b'] }, 'drop_params.1'],
      ['a leading dot', { drop_params: ['.a'] }, 'drop_params.0'],
      ['a trailing dot', { drop_params: ['a.'] }, 'drop_params.0'],
      ['dropping stream', { drop_params: ['stream'] }, 'drop_params.0'],
      ['overriding stream', { override_params: { stream: false } }, 'override_params.stream'],
      ['defaulting stream', { default_params: { stream: true } }, 'default_params.stream'],
    ];
    for (const [what, settings, param] of cases) {
      it(`refuses ${what} (${param})`, async () => {
        const res = await postJson(gw.url, CHAT, clientBody(), configHeaders({ ...openai(), ...settings }));
        expect(res.status).to.equal(400);
        expect(res.json.error).to.include({ param, code: 'invalid_config', type: 'invalid_request_error' });
        expect(res.json.error.message).to.match(new RegExp(`^config\\.${param.replace(/\./g, '\\.')}: `));
        expect(mock.requests).to.have.length(0);
      });
    }

    it('names the path of a nested target', async () => {
      const config = { strategy: { mode: 'single' }, targets: [{ ...openai(), drop_params: ['ok', 'x..y'] }] };
      const res = await postJson(gw.url, CHAT, clientBody(), configHeaders(config));
      expect(res.status).to.equal(400);
      expect(res.json.error.param).to.equal('targets.0.drop_params.1');
    });

    it('refuses the same bad path again on the next request (a cached config stays refused)', async () => {
      const headers = configHeaders({ ...openai(), drop_params: ['a..b'] });
      for (let i = 0; i < 2; i++) expect((await postJson(gw.url, CHAT, clientBody(), headers)).status).to.equal(400);
    });
  });
});
