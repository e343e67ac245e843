/**
 * `strict_open_ai_compliance`, the alias of `strict_compat_compliance` (configs written for the
 * nearest existing gateway carry over): in x-gw-config, as a header, inherited; both at once with
 * different values is a 400 naming the alias. Through a real gateway to the loopback Anthropic mock.
 */
import { expect } from 'chai';
import AnthropicProviderPlugin from '../../../providers/anthropic/index.js';
import { startAnthropicMock, type MockAnthropic } from '../../fixtures/mock-anthropic.js';
import { configHeaders, postJson, startGateway, TEST_API_KEY, type TestGateway } from '../../helpers/gateway.js';

const MODEL = 'claude-sonnet-4-5';
const thinking = { type: 'enabled', budget_tokens: 2048 };
const ask = { model: MODEL, messages: [{ role: 'user', content: 'think' }], thinking };

describe('provider.anthropic: strict_open_ai_compliance (alias)', () => {
  let mock: MockAnthropic;
  let gw: TestGateway;
  const route = (extra: Record<string, unknown> = {}) => ({ provider: 'anthropic', api_key: 'sk-ant-test', custom_host: `${mock.url}/v1`, ...extra });
  const chat = (config: unknown, extra: Record<string, string> = {}) => postJson(gw.url, '/v1/chat/completions', ask, configHeaders(config, extra));
  const lastBody = () => mock.requests[mock.requests.length - 1]!.body;

  before(async () => {
    mock = await startAnthropicMock();
    gw = await startGateway({ plugins: [AnthropicProviderPlugin] });
  });
  after(async () => {
    await gw?.stop();
    await mock?.close();
  });
  beforeEach(() => mock.reset());

  it('false in the config passes thinking on and answers content_blocks, as strict_compat_compliance false does', async () => {
    const reply = await chat(route({ strict_open_ai_compliance: false }));
    expect(reply.status, reply.text).to.equal(200);
    expect(lastBody().thinking).to.deep.equal(thinking);
    expect(reply.json.choices[0].message.content_blocks[0]).to.include({ type: 'thinking' });
  });

  it('true (like the default) drops thinking both ways', async () => {
    const reply = await chat(route({ strict_open_ai_compliance: true }));
    expect(reply.status, reply.text).to.equal(200);
    expect(lastBody()).to.not.have.property('thinking');
    expect(reply.json.choices[0].message).to.not.have.property('content_blocks');
  });

  it('is read from the header x-gw-strict-open-ai-compliance (direct mode)', async () => {
    const reply = await postJson(gw.url, '/v1/chat/completions', ask, {
      'content-type': 'application/json', 'x-gw-api-key': TEST_API_KEY, 'x-gw-provider': 'anthropic',
      authorization: 'Bearer sk-ant-direct', 'x-gw-custom-host': `${mock.url}/v1`, 'x-gw-strict-open-ai-compliance': 'false',
    });
    expect(reply.status, reply.text).to.equal(200);
    expect(lastBody().thinking).to.deep.equal(thinking);
  });

  it('is inherited by targets from their parent node', async () => {
    const reply = await chat({ strict_open_ai_compliance: false, strategy: { mode: 'single' }, targets: [route()] });
    expect(reply.status, reply.text).to.equal(200);
    expect(lastBody().thinking).to.deep.equal(thinking);
  });

  it('both names with the same value are accepted', async () => {
    const reply = await chat(route({ strict_open_ai_compliance: false, strict_compat_compliance: false }));
    expect(reply.status, reply.text).to.equal(200);
    expect(lastBody().thinking).to.deep.equal(thinking);
  });

  it('both names with different values on one node: 400 naming the alias, no provider call', async () => {
    const reply = await chat(route({ strict_open_ai_compliance: false, strict_compat_compliance: true }));
    expect(reply.status).to.equal(400);
    expect(reply.json.error.message).to.contain('strict_open_ai_compliance');
    expect(reply.json.error.message).to.contain('alias of strict_compat_compliance');
    expect(mock.requests).to.have.length(0);
  });

  it('one inherited and the other the target\'s own, differing: 400 at the target\'s path', async () => {
    const reply = await chat({ strict_compat_compliance: true, strategy: { mode: 'single' }, targets: [route({ strict_open_ai_compliance: false })] });
    expect(reply.status).to.equal(400);
    expect(reply.json.error.message).to.contain('targets.0.strict_open_ai_compliance');
    expect(mock.requests).to.have.length(0);
  });

  it('the header and the config differing: 400', async () => {
    const reply = await chat(route({ strict_compat_compliance: true }), { 'x-gw-strict-open-ai-compliance': 'false' });
    expect(reply.status).to.equal(400);
    expect(reply.json.error.message).to.contain('strict_open_ai_compliance');
  });

  it('a value that is not a boolean: 400 naming the field and the rule', async () => {
    const reply = await chat(route({ strict_open_ai_compliance: 'no' }));
    expect(reply.status).to.equal(400);
    expect(reply.json.error.message).to.contain('strict_open_ai_compliance');
    expect(reply.json.error.message).to.contain('boolean');
    const header = await postJson(gw.url, '/v1/chat/completions', ask, configHeaders(route(), { 'x-gw-strict-open-ai-compliance': 'yes' }));
    expect(header.status).to.equal(400);
    expect(header.json.error.message).to.contain('x-gw-strict-open-ai-compliance');
  });
});
