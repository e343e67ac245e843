/** admin.guardrails end to end: configs name stored guardrails by id or slug; the runner applies them. */
import { expect } from 'chai';
import { startMockOpenAI, type MockOpenAI } from '../../../fixtures/mock-openai.js';
import { configHeaders, postJson, type TestGateway } from '../../../helpers/gateway.js';
import { call, openaiIntegration, startAdminGateway } from '../integrations/harness.js';

describe('admin.guardrails: stored guardrails in configs', () => {
  let gw: TestGateway;
  let mock: MockOpenAI;
  let id: string;

  before(async () => {
    mock = await startMockOpenAI();
    gw = await startAdminGateway();
    await call(gw, 'POST', '/v1/integrations', openaiIntegration(mock, 'acct', 'sk-acct-000000000000'));
    id = (await call(gw, 'POST', '/v1/guardrails', {
      name: 'Letters only', slug: 'letters-only', checks: [{ id: 'default.regexMatch', parameters: { rule: '^[a-z ]+$' } }], actions: { deny: true },
    })).json.id;
  });
  after(async () => {
    await gw?.stop();
    await mock?.close();
  });
  beforeEach(() => mock.reset());

  const chat = (config: unknown, content: string) => postJson(gw.url, '/v1/chat/completions', { model: 'gpt-4o-mini', messages: [{ role: 'user', content }] }, configHeaders(config));

  it('denies with 446 when a stored input guardrail named by slug fails, before the provider is called', async () => {
    const config = { provider: '@acct', input_guardrails: ['letters-only'] };
    expect((await chat(config, 'hello there')).status).to.equal(200);
    const denied = await chat(config, 'hello 42');
    expect(denied.status).to.equal(446);
    expect(denied.json.hook_results.before_request_hooks[0]).to.deep.include({ id: 'letters-only', verdict: false, deny: true });
    expect(mock.requests).to.have.length(1);
  });

  it('takes an id as well, in output guardrails too', async () => {
    mock.next({ status: 200, body: { id: 'x', object: 'chat.completion', created: 1, model: 'm', choices: [{ index: 0, message: { role: 'assistant', content: 'Answer 42' }, finish_reason: 'stop' }] } });
    const res = await chat({ provider: '@acct', output_guardrails: [id] }, 'hi');
    expect(res.status).to.equal(446);
    expect(res.json.hook_results.after_request_hooks[0]).to.deep.include({ id: 'letters-only', verdict: false });
  });

  it('refuses a config naming an unknown or deleted guardrail with a 400', async () => {
    const unknown = await chat({ provider: '@acct', input_guardrails: ['nope'] }, 'hi');
    expect(unknown.status).to.equal(400);
    expect(unknown.json.error.message).to.equal('config.input_guardrails.0: unknown guardrail "nope"');
    const temp = await call(gw, 'POST', '/v1/guardrails', { name: 'temp', slug: 'temp', checks: [{ id: 'default.wordCount', parameters: { maxWords: 3 } }] });
    await call(gw, 'DELETE', `/v1/guardrails/${temp.json.id}`);
    const deleted = await chat({ provider: '@acct', input_guardrails: ['temp'] }, 'hi');
    expect(deleted.status).to.equal(400);
    expect(deleted.json.error.message).to.equal('config.input_guardrails.0: unknown guardrail "temp"');
    expect(mock.requests).to.have.length(0);
  });

  it('refuses a stored guardrail in a phase its checks do not support', async () => {
    const created = await call(gw, 'POST', '/v1/guardrails', { name: 'models', slug: 'models-only', checks: [{ id: 'default.modelWhitelist', parameters: { models: ['gpt-4o-mini'] } }] });
    expect(created.json.phases).to.deep.equal(['beforeRequest', 'input']);
    expect((await chat({ provider: '@acct', input_guardrails: ['models-only'] }, 'hi')).status).to.equal(200);
    const res = await chat({ provider: '@acct', output_guardrails: ['models-only'] }, 'hi');
    expect(res.status).to.equal(400);
    expect(res.json.error.message).to.match(/^config\.output_guardrails\.0: stored guardrail "models-only": .*does not run in the output phase/);
  });

  it('a changed guardrail applies to configs loaded after the change', async () => {
    await call(gw, 'POST', '/v1/guardrails', { name: 'short', slug: 'short', checks: [{ id: 'default.wordCount', parameters: { maxWords: 1 } }], actions: { deny: true } });
    expect((await chat({ provider: '@acct', input_guardrails: ['short'], name: 'v1' }, 'two words')).status).to.equal(446);
    await call(gw, 'PUT', '/v1/guardrails/short', { checks: [{ id: 'default.wordCount', parameters: { maxWords: 5 } }] });
    expect((await chat({ provider: '@acct', input_guardrails: ['short'], name: 'v2' }, 'two words')).status).to.equal(200);
  });
});
