import { expect } from 'chai';
import type { Runtime } from '../../../core/index.js';
import WebhookGuardrail from '../../../guardrails/webhook/index.js';
import type { WebhookParams } from '../../../guardrails/webhook/params.js';
import { input, loadCheck, output, run, validateParams, type TestableCheck } from '../helpers.js';
import { sendJson, startServer, type LocalServer } from '../local-server.js';

describe('guardrail default.webhook', () => {
  let check: TestableCheck<WebhookParams>;
  let runtime: Runtime;
  let hook: LocalServer;
  before(async () => {
    ({ check, runtime } = await loadCheck(WebhookGuardrail, 'default.webhook'));
    hook = await startServer();
  });
  afterEach(() => (hook.received.length = 0));
  after(async () => {
    await hook.close();
    await runtime.close();
  });

  describe('params', () => {
    it('defaults: timeout 10000, deny true', () => {
      expect(validateParams(check, { webhookURL: 'http://x.test/h' }).value).to.deep.equal({ webhookURL: 'http://x.test/h', timeout: 10000, deny: true });
    });
    it('needs exactly one of webhookURL and apiDomain', () => {
      expect(validateParams(check, {}).issues[0]).to.deep.equal({ path: 'apiDomain', rule: 'is required (or webhookURL)' });
      expect(validateParams(check, { webhookURL: 'http://a.test', apiDomain: 'b.test' }).ok).to.equal(false);
      expect(validateParams(check, { apiDomain: 'guard.example.com' }).ok).to.equal(true);
    });
    it('rejects a bad URL, bad headers and bounds', () => {
      expect(validateParams(check, { webhookURL: 'ftp://x' }).issues[0]).to.deep.equal({ path: 'webhookURL', rule: 'must be an http(s) URL' });
      expect(validateParams(check, { webhookURL: 'http://x.test', headers: '{not json' }).issues[0]!.path).to.equal('headers');
      expect(validateParams(check, { webhookURL: 'http://x.test', headers: '{"a":1}' }).issues[0]!.path).to.equal('headers');
      expect(validateParams(check, { webhookURL: 'http://x.test', timeout: 0 }).ok).to.equal(false);
    });
  });

  it('POSTs the request, metadata and policyId with the configured headers, and takes the verdict', async () => {
    hook.handle((_req, res) => sendJson(res, 200, { verdict: true, data: { score: 0.1 } }));
    const result = await run(check, { webhookURL: `${hook.url}/check`, headers: { authorization: 'Bearer hook-secret' }, policyId: 'pol-1' },
      input('hello', { metadata: { team: 'a' } }));
    expect(result.verdict).to.equal(true);
    expect(result.data).to.deep.include({ responseData: { score: 0.1 } });
    expect(result.data).to.have.all.keys('responseData', 'durationMs');
    const sent = hook.received[0]!;
    expect(sent.method).to.equal('POST');
    expect(sent.path).to.equal('/check');
    expect(sent.headers['authorization']).to.equal('Bearer hook-secret');
    expect(sent.json).to.deep.include({ eventType: 'beforeRequestHook', policyId: 'pol-1', requestType: 'chatComplete', metadata: { team: 'a' } });
    expect(sent.json.request.text).to.equal('hello');
  });

  it('sends the response on output phases and passes a false verdict on; headers as a JSON string', async () => {
    hook.handle((_req, res) => sendJson(res, 200, { verdict: false, data: { reason: 'tone' } }));
    const result = await run(check, { apiDomain: hook.url, headers: '{"x-key":"k"}' }, output('rude answer'));
    expect(result.verdict).to.equal(false);
    expect(result.data).to.deep.include({ responseData: { reason: 'tone' }, explanation: 'the webhook answered verdict false' });
    expect(hook.received[0]!.json.eventType).to.equal('afterRequestHook');
    expect(hook.received[0]!.json.response.text).to.equal('rude answer');
    expect(hook.received[0]!.headers['x-key']).to.equal('k');
  });

  it('fails closed by default when the webhook errs, and open with deny: false', async () => {
    hook.handle((_req, res) => sendJson(res, 500, { error: 'boom' }));
    const closed = await run(check, { webhookURL: hook.url }, input('x'));
    expect(closed.verdict).to.equal(false);
    expect(closed.data).to.deep.include({ error: 'answered HTTP 500', explanation: 'the webhook failed and the check fails closed' });
    expect(closed.data).not.to.have.property('webhookURL');
    const open = await run(check, { webhookURL: hook.url, deny: false }, input('x'));
    expect(open.verdict).to.equal(true);
    expect(open.data).to.deep.include({ error: 'answered HTTP 500' });
    expect(open.data).to.have.all.keys('error', 'durationMs');
  });

  it('treats an answer without a boolean verdict, or not JSON, as a failure', async () => {
    hook.handle((_req, res) => sendJson(res, 200, { verdict: 'yes' }));
    expect((await run(check, { webhookURL: hook.url }, input('x'))).data).to.deep.include({ error: 'answer has no boolean "verdict"' });
    hook.handle((_req, res) => void res.writeHead(200, { 'content-type': 'text/plain' }).end('ok'));
    expect((await run(check, { webhookURL: hook.url }, input('x'))).data).to.deep.include({ error: 'answered something that is not JSON' });
  });

  it('gives up after timeout ms', async () => {
    hook.handle(() => undefined); // never answers
    const started = performance.now();
    const result = await run(check, { webhookURL: hook.url, timeout: 50 }, input('x'));
    expect(result.verdict).to.equal(false);
    expect(result.data).to.deep.include({ error: 'no answer within 50 ms' });
    expect(performance.now() - started).to.be.below(1000);
  });

  it('reports an unreachable webhook', async () => {
    const result = await run(check, { webhookURL: 'http://127.0.0.1:1/none', deny: true }, input('x'));
    expect(result.verdict).to.equal(false);
    expect((result.data as { error: string }).error).to.match(/^unreachable/);
  });

  it('rethrows when the client went away (nothing to decide for)', async () => {
    hook.handle(() => undefined);
    const controller = new AbortController();
    const pending = run(check, { webhookURL: hook.url }, input('x', { signal: controller.signal }));
    setTimeout(() => controller.abort(new Error('client gone')), 20);
    let error: unknown;
    try {
      await pending;
    } catch (e) {
      error = e;
    }
    expect(error).to.be.instanceOf(Error);
  });
});
