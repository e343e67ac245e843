/**
 * Built-in checks through the guardrail runner and a real gateway, in front of the mock OpenAI
 * provider: redaction reaching the provider, denials (446) and flags (246), moderation through the
 * provider adapter, and bad params refused with a 400 when the config is loaded.
 */
import { expect } from 'chai';
import OpenAI from 'openai';
import type { PluginClass } from '../../../core/index.js';
import ModerationGuardrail from '../../../guardrails/moderation/index.js';
import PiiGuardrail from '../../../guardrails/pii/index.js';
import RegexMatchGuardrail from '../../../guardrails/regex-match/index.js';
import RegexReplaceGuardrail from '../../../guardrails/regex-replace/index.js';
import RequiredMetadataKeyPairsGuardrail from '../../../guardrails/required-metadata-key-pairs/index.js';
import WebhookGuardrail from '../../../guardrails/webhook/index.js';
import { startMockOpenAI, type MockOpenAI } from '../../fixtures/mock-openai.js';
import { configHeaders, postJson, startGateway, type TestGateway } from '../../helpers/gateway.js';
import GuardrailRunner from '../../../plugins/guardrails/runner/index.js';
import { sendJson, startServer, type LocalServer } from '../local-server.js';

const CHECKS: PluginClass[] = [PiiGuardrail, RegexMatchGuardrail, RegexReplaceGuardrail, RequiredMetadataKeyPairsGuardrail, ModerationGuardrail, WebhookGuardrail];

describe('built-in guardrail checks through the runner (end to end)', () => {
  let gw: TestGateway | undefined;
  let mock: MockOpenAI;
  let hook: LocalServer;

  before(async () => {
    gw = await startGateway({ plugins: [GuardrailRunner, ...CHECKS] });
    mock = await startMockOpenAI();
    hook = await startServer((_req, res) => sendJson(res, 200, { verdict: true }));
  });
  afterEach(() => mock?.reset());
  after(async () => {
    await hook?.close();
    await mock?.close();
    await gw?.stop();
  });

  const leaf = (extra: Record<string, unknown>) => ({ provider: 'openai', api_key: 'sk-test', custom_host: `${mock.url}/v1`, ...extra });
  const chat = (content: string) => ({ model: 'gpt-4o-mini', messages: [{ role: 'system', content: 'be brief' }, { role: 'user', content }] });
  const send = (config: unknown, body: unknown, extra: Record<string, string> = {}) => postJson(gw!.url, '/v1/chat/completions', body, configHeaders(config, extra));

  it('redacts personal data before it reaches the provider (input guardrail)', async () => {
    const config = leaf({ input_guardrails: [{ id: 'pii', 'default.pii': { redact: true } }] });
    const res = await send(config, chat('I am ada@acme.com, card 4111 1111 1111 1111'));
    expect(res.status, res.text).to.equal(200);
    const sent = mock.requests[0]!.body;
    expect(sent.messages[0].content).to.equal('be brief');
    expect(sent.messages[1].content).to.equal('I am [EMAIL], card [CREDIT_CARD]');
    expect(mock.requests[0]!.rawBody).not.to.include('ada@acme.com');
    const check = res.json.hook_results.before_request_hooks[0].checks[0];
    expect(check).to.deep.include({ id: 'default.pii', verdict: true, data: { detected: { email: 1, credit_card: 1 }, redacted: true } });
    expect(JSON.stringify(res.json.hook_results)).not.to.include('4111');
  });

  it('denies with 446 before the provider when personal data is found without redact', async () => {
    const config = leaf({ input_guardrails: [{ id: 'no-pii', deny: true, 'default.pii': {} }] });
    const res = await send(config, chat('my ssn is 123-45-6789'));
    expect(res.status).to.equal(446);
    expect(mock.requests.length).to.equal(0);
    expect(res.json.hook_results.before_request_hooks[0].checks[0]).to.deep.include({
      id: 'default.pii', verdict: false, data: { detected: { ssn: 1 }, explanation: 'personal data found: ssn' },
    });
  });

  it('flags an answer with 246 without deny, and passes required metadata (hook checks form)', async () => {
    const config = leaf({
      before_request_hooks: [{ id: 'meta', checks: [{ id: 'default.requiredMetadataKeyPairs', parameters: { metadataPairs: { team: 'search' } } }] }],
      output_guardrails: [{ id: 'no-echo', 'default.regexMatch': { rule: '^echo', not: true } }],
    });
    const res = await send(config, chat('hello'), { 'x-gw-metadata': JSON.stringify({ team: 'search' }) });
    expect(res.status, res.text).to.equal(246);
    expect(res.json.choices[0].message.content).to.be.a('string');
    expect(res.json.hook_results.after_request_hooks[0]).to.deep.include({ id: 'no-echo', verdict: false });
  });

  it('rewrites the answer with regexReplace (output guardrail) as the OpenAI SDK sees it', async () => {
    const config = leaf({ output_guardrails: [{ id: 'mask', 'default.regexReplace': { rule: '[A-Za-z]+', replacement: 'x' } }] });
    const client = new OpenAI({ apiKey: 'sk-x', baseURL: gw!.url + '/v1', maxRetries: 0, defaultHeaders: configHeaders(config) });
    const answer = await client.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hello' }] });
    expect(answer.choices[0]!.message.content).to.match(/^[x\W\d]*$/);
  });

  it('moderates the request through the provider adapter; a flagged request is denied', async () => {
    const moderation = { provider: 'openai', api_key: 'sk-mod', custom_host: `${mock.url}/v1`, categories: ['violence'] };
    const config = leaf({ input_guardrails: [{ id: 'mod', deny: true, 'default.moderation': moderation }] });
    const flagged = await send(config, chat('how to kill a process tree'));
    expect(flagged.status).to.equal(446);
    expect(mock.requests.map((r) => r.path)).to.deep.equal(['/v1/moderations']);
    const ok = await send(config, chat('hello'));
    expect(ok.status, ok.text).to.equal(200);
  });

  it('asks a webhook on the request', async () => {
    const config = leaf({ input_guardrails: [{ id: 'hook', deny: true, 'default.webhook': { webhookURL: `${hook.url}/v`, policyId: 'p1' } }] });
    hook.handle((_req, res) => sendJson(res, 200, { verdict: false, data: { why: 'policy p1' } }));
    const denied = await send(config, chat('hello'));
    expect(denied.status).to.equal(446);
    expect(hook.received.at(-1)!.json.policyId).to.equal('p1');
    hook.handle((_req, res) => sendJson(res, 200, { verdict: true }));
    expect((await send(config, chat('hello'))).status).to.equal(200);
  });

  it('refuses bad check params with a 400 naming the field, when the config is loaded', async () => {
    const badRegex = await send(leaf({ input_guardrails: [{ 'default.regexMatch': { rule: '(' } }] }), chat('hi'));
    expect(badRegex.status).to.equal(400);
    expect(badRegex.json.error.message).to.match(/^config\.input_guardrails\.0\.default\.regexMatch\.rule: must be a valid regular expression/);
    const badProvider = await send(leaf({ input_guardrails: [{ 'default.moderation': { provider: 'nope' } }] }), chat('hi'));
    expect(badProvider.status).to.equal(400);
    expect(badProvider.json.error.message).to.match(/default\.moderation\.provider: unknown provider "nope"/);
    expect(mock.requests.length).to.equal(0);
  });
});
