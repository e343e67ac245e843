/** Guardrails that transform: redaction reaches the provider (request) and the client (answer). */
import { expect } from 'chai';
import type { MockOpenAI } from '../../../fixtures/mock-openai.js';
import type { TestGateway } from '../../../helpers/gateway.js';
import { chat, closeAll, leaf, send, startGuardedGateway, startMocks } from './harness.js';

describe('guardrails.runner: transformations', () => {
  let gw: TestGateway;
  let mocks: MockOpenAI[];
  before(async () => {
    gw = await startGuardedGateway();
    mocks = await startMocks(1);
  });
  afterEach(() => mocks[0]!.reset());
  after(async () => {
    await closeAll(mocks);
    await gw.stop();
  });

  const mock = () => mocks[0]!;

  it('an input redaction reaches the provider (the mock echoes what it received)', async () => {
    const config = leaf(mock(), { input_guardrails: [{ id: 'redact', 'test.redact': { word: 'Project Falcon' } }] });
    const res = await send(gw, config, chat('status of Project Falcon please'));
    expect(res.status).to.equal(200);
    expect(mock().requests[0]!.body.messages[0].content).to.equal('status of [REDACTED] please');
    expect(res.json.choices[0].message.content).to.equal('echo: status of [REDACTED] please');
    const hook = res.json.hook_results.before_request_hooks[0];
    expect(hook.transformed).to.equal(true);
    expect(hook.checks[0].transformed).to.equal(true);
  });

  it('maps a redaction back onto each message and text part it was joined from', async () => {
    const body = {
      model: 'gpt-4o-mini',
      messages: [
        { role: 'system', content: 'Never mention Falcon.\nBe brief.' },
        { role: 'user', content: [{ type: 'text', text: 'About Falcon:' }, { type: 'image_url', image_url: { url: 'https://example.com/a.png' } }, { type: 'text', text: 'is Falcon late?' }] },
        { role: 'assistant', content: 'No idea.' },
        { role: 'user', content: 'Falcon again' },
      ],
    };
    const config = leaf(mock(), { before_request_hooks: [{ id: 'r', checks: [{ id: 'test.redact', parameters: { word: 'Falcon', replacement: '***' } }] }] });
    const res = await send(gw, config, body);
    expect(res.status).to.equal(200);
    const sent = mock().requests[0]!.body.messages;
    expect(sent[0].content).to.equal('Never mention ***.\nBe brief.');
    expect(sent[1].content).to.deep.equal([{ type: 'text', text: 'About ***:' }, { type: 'image_url', image_url: { url: 'https://example.com/a.png' } }, { type: 'text', text: 'is *** late?' }]);
    expect(sent[2].content).to.equal('No idea.');
    expect(sent[3].content).to.equal('*** again');
  });

  it('chains several redactions of one phase, each on the text the previous produced', async () => {
    const config = leaf(mock(), {
      input_guardrails: [
        { id: 'a', 'test.redact': { word: 'Falcon', replacement: '[A]' } },
        { id: 'b', 'test.redact': { word: 'Osprey', replacement: '[B]' } },
      ],
    });
    const res = await send(gw, config, chat('Falcon and Osprey'));
    expect(mock().requests[0]!.body.messages[0].content).to.equal('[A] and [B]');
    expect(res.json.hook_results.before_request_hooks.map((h: { transformed?: boolean }) => h.transformed)).to.deep.equal([true, true]);
  });

  it('a later check sees the redaction of an earlier phase', async () => {
    const config = leaf(mock(), {
      before_request_hooks: [{ id: 'r', checks: [{ id: 'test.redact', parameters: { word: 'secret' } }] }],
      input_guardrails: [{ id: 'no-secret', deny: true, 'test.forbid': { word: 'secret' } }],
    });
    const res = await send(gw, config, chat('a secret'));
    expect(res.status).to.equal(200);
    expect(mock().requests[0]!.body.messages[0].content).to.equal('a [REDACTED]');
  });

  it('redacts the answer (JSON) before the client sees it, and after_request_hooks see the redacted text', async () => {
    const config = leaf(mock(), {
      output_guardrails: [{ id: 'mask', 'test.redact': { word: 'Falcon', replacement: '[project]' } }],
      after_request_hooks: [{ id: 'leak', deny: true, checks: [{ id: 'test.forbid', parameters: { word: 'Falcon' } }] }],
    });
    const res = await send(gw, config, chat('tell me about Falcon'));
    expect(res.status).to.equal(200);
    expect(res.json.choices[0].message.content).to.equal('echo: tell me about [project]');
    // The provider got the original: only the answer was redacted.
    expect(mock().requests[0]!.body.messages[0].content).to.equal('tell me about Falcon');
    expect(res.json.hook_results.after_request_hooks.map((h: { id: string; verdict: boolean }) => [h.id, h.verdict])).to.deep.equal([['mask', true], ['leak', true]]);
  });

  it('redacts a completions prompt and a completions answer', async () => {
    const config = leaf(mock(), {
      input_guardrails: [{ 'test.redact': { word: 'Falcon' } }],
      output_guardrails: [{ 'test.redact': { word: 'echo', replacement: 'ECHO' } }],
    });
    const { postJson, configHeaders } = await import('../../../helpers/gateway.js');
    const res = await postJson(gw.url, '/v1/completions', { model: 'gpt-3.5-turbo-instruct', prompt: 'Falcon?' }, configHeaders(config));
    expect(res.status).to.equal(200);
    expect(mock().requests[0]!.body.prompt).to.equal('[REDACTED]?');
    expect(res.json.choices[0].text).to.match(/^ECHO/);
  });
});
