import { expect } from 'chai';
import type { Runtime } from '../../../core/index.js';
import LassoGuardrail from '../../../guardrails/lasso/index.js';
import type { LassoClassifyParams } from '../../../guardrails/lasso/params.js';
import { input, loadCheck, output, run, validateParams, type TestableCheck } from '../helpers.js';
import { sendJson, startServer, type LocalServer } from '../local-server.js';

describe('guardrail lasso.classify', () => {
  let check: TestableCheck<LassoClassifyParams>;
  let runtime: Runtime;
  let lasso: LocalServer;
  before(async () => {
    ({ check, runtime } = await loadCheck(LassoGuardrail, 'lasso.classify'));
    lasso = await startServer();
  });
  afterEach(() => (lasso.received.length = 0));
  after(async () => {
    await lasso.close();
    await runtime.close();
  });

  const params = () => ({ api_key: 'lasso-key', apiEndpoint: lasso.url });
  const clean = { violations_detected: false, deputies: { jailbreak: false }, deputies_predictions: { jailbreak: 0.01 } };

  it('validates params: api_key required, apiEndpoint an URL', () => {
    expect(validateParams(check, {}).issues[0]).to.deep.equal({ path: 'api_key', rule: 'is required' });
    expect(validateParams(check, { api_key: 'k', apiEndpoint: 'nope' }).issues[0]).to.deep.equal({ path: 'apiEndpoint', rule: 'must be an http(s) URL' });
    expect(validateParams(check, { api_key: 'k' }).value).to.deep.equal({ api_key: 'k', timeout: 10000 });
  });

  it('sends the conversation with the key and optional ids, and passes a clean classification', async () => {
    lasso.handle((_req, res) => sendJson(res, 200, clean));
    const json = { model: 'm', messages: [{ role: 'system', content: 'be nice' }, { role: 'user', content: [{ type: 'text', text: 'hi' }, { type: 'image_url', image_url: { url: 'http://x' } }] }] };
    const result = await run(check, { ...params(), conversationId: 'c1', userId: 'u1' }, input('hi', { json }));
    expect(result.verdict).to.equal(true);
    expect(result.data).to.deep.include({ violations_detected: false, deputies: { jailbreak: false } });
    expect(result.data).not.to.have.property('explanation');
    const sent = lasso.received[0]!;
    expect(sent.path).to.equal('/gateway/v2/classify');
    expect(sent.headers['lasso-api-key']).to.equal('lasso-key');
    expect(sent.headers['lasso-conversation-id']).to.equal('c1');
    expect(sent.headers['lasso-user-id']).to.equal('u1');
    expect(sent.json).to.deep.equal({ messages: [{ role: 'system', content: 'be nice' }, { role: 'user', content: 'hi' }] });
  });

  it('fails on violations; includes the answer on output phases', async () => {
    lasso.handle((_req, res) => sendJson(res, 200, { violations_detected: true, deputies: { jailbreak: true } }));
    const result = await run(check, params(), output('leaked prompt'));
    expect(result.verdict).to.equal(false);
    expect(lasso.received[0]!.json.messages.at(-1)).to.deep.equal({ role: 'assistant', content: 'leaked prompt' });
  });

  it('throws (an errored verdict for the runner) when the classifier fails or answers nonsense', async () => {
    lasso.handle((_req, res) => sendJson(res, 401, { error: 'bad key' }));
    let error: Error | undefined;
    await run(check, params(), input('x')).catch((e: Error) => (error = e));
    expect(error?.message).to.equal('lasso: answered HTTP 401');
    lasso.handle((_req, res) => sendJson(res, 200, { ok: true }));
    await run(check, params(), input('x')).catch((e: Error) => (error = e));
    expect(error?.message).to.equal('lasso: answer has no boolean "violations_detected"');
    lasso.handle(() => undefined);
    await run(check, { ...params(), timeout: 30 }, input('x')).catch((e: Error) => (error = e));
    expect(error?.message).to.equal('lasso: no answer within 30 ms');
  });
});
