/**
 * Guardrail patterns (regexMatch, regexReplace, requiredMetadataKeyPairs with regex, jsonSchema
 * `pattern`) on the linear-time engine, through the runner and a real gateway: an exponential
 * pattern answers at once without stalling other requests; an unsupported one is a 400 naming
 * the config path and the rule when the config is loaded.
 */
import { expect } from 'chai';
import type { PluginClass } from '../../../core/index.js';
import JsonSchemaGuardrail from '../../../guardrails/json-schema/index.js';
import RegexMatchGuardrail from '../../../guardrails/regex-match/index.js';
import RegexReplaceGuardrail from '../../../guardrails/regex-replace/index.js';
import RequiredMetadataKeyPairsGuardrail from '../../../guardrails/required-metadata-key-pairs/index.js';
import { startMockOpenAI, type MockOpenAI } from '../../fixtures/mock-openai.js';
import { configHeaders, postJson, startGateway, type TestGateway } from '../../helpers/gateway.js';
import GuardrailRunner from '../../../plugins/guardrails/runner/index.js';

const CHECKS: PluginClass[] = [RegexMatchGuardrail, RegexReplaceGuardrail, RequiredMetadataKeyPairsGuardrail, JsonSchemaGuardrail];
const RULE_HINT = '(patterns run on a linear-time engine, RE2 syntax)';

describe('guardrail patterns on the linear-time engine (end to end)', () => {
  let gw: TestGateway | undefined;
  let mock: MockOpenAI;

  before(async () => {
    gw = await startGateway({ plugins: [GuardrailRunner, ...CHECKS] });
    mock = await startMockOpenAI();
  });
  afterEach(() => mock?.reset());
  after(async () => {
    await mock?.close();
    await gw?.stop();
  });

  const leaf = (extra: Record<string, unknown>) => ({ provider: 'openai', api_key: 'sk-test', custom_host: `${mock.url}/v1`, ...extra });
  const chat = (content: string) => ({ model: 'gpt-4o-mini', messages: [{ role: 'user', content }] });
  const send = (config: unknown, body: unknown, extra: Record<string, string> = {}) => postJson(gw!.url, '/v1/chat/completions', body, configHeaders(config, extra));

  it('exponential rules in every check answer promptly and stall no concurrent request', async () => {
    const evilText = 'a'.repeat(100_000) + '!';
    const config = leaf({
      input_guardrails: [{
        id: 'evil', deny: true,
        'default.regexMatch': { rule: '^(a+)+$', not: true },
        'default.regexReplace': { rule: '(a+)+b', replacement: 'x' },
        'default.jsonSchema': { schema: { type: 'object', properties: { s: { type: 'string', pattern: '^(a+)+$' } } } },
      }],
    });
    const started = Date.now();
    const evil = send(config, chat(evilText));
    const plain = Array.from({ length: 3 }, () => send(leaf({}), chat('hello')));
    const [evilReply, ...plainReplies] = await Promise.all([evil, ...plain]);
    for (const res of plainReplies) expect(res.status, res.text).to.equal(200);
    // regexMatch passes (not: the text does not match), regexReplace finds nothing, jsonSchema finds no JSON.
    expect(evilReply.status, evilReply.text.slice(0, 300)).to.equal(446);
    const checks = evilReply.json.hook_results.before_request_hooks[0].checks;
    expect(checks.map((c: { id: string; verdict: boolean }) => [c.id, c.verdict])).to.deep.equal([
      ['default.regexMatch', true], ['default.regexReplace', true], ['default.jsonSchema', false],
    ]);
    expect(checks[1].data).to.deep.equal({ replacements: 0 });
    expect(Date.now() - started, 'did not hang').to.be.below(8000);
  });

  it('a schema pattern that backtracks exponentially is checked at once against a long JSON string', async () => {
    const config = leaf({ input_guardrails: [{ deny: true, 'default.jsonSchema': { schema: { type: 'object', required: ['s'], properties: { s: { type: 'string', pattern: '^(a+)+$' } } } } }] });
    const denied = await send(config, chat(JSON.stringify({ s: 'a'.repeat(50_000) + '!' })));
    expect(denied.status).to.equal(446);
    const passed = await send(config, chat(JSON.stringify({ s: 'aaaa' })));
    expect(passed.status, passed.text).to.equal(200);
  });

  it('regexReplace keeps $1 groups and the i flag', async () => {
    const config = leaf({ input_guardrails: [{ 'default.regexReplace': { rule: '(\\w+)@ACME\\.com', caseInsensitive: true, replacement: '$1 at acme' } }] });
    const res = await send(config, chat('write to ada@acme.com'));
    expect(res.status, res.text).to.equal(200);
    expect(mock.requests[0]!.body.messages[0].content).to.equal('write to ada at acme');
  });

  describe('an unsupported pattern is a 400 naming the path, before the provider', () => {
    async function rejected(guardrail: Record<string, unknown>, message: string, extra: Record<string, string> = {}) {
      const res = await send(leaf({ input_guardrails: [guardrail] }), chat('hi'), extra);
      expect(res.status).to.equal(400);
      expect(res.json.error.type).to.equal('invalid_request_error');
      expect(res.json.error.message).to.equal(message);
      expect(mock.requests.length).to.equal(0);
    }

    it('regexMatch with a lookahead', async () => {
      await rejected({ 'default.regexMatch': { rule: 'secret(?=:)' } }, `config.input_guardrails.0.default.regexMatch.rule: must not use (?=: lookahead and lookbehind are not supported ${RULE_HINT}`);
    });

    it('regexReplace with a backreference', async () => {
      await rejected({ 'default.regexReplace': { rule: '(\\w)\\1' } }, `config.input_guardrails.0.default.regexReplace.rule: must not use \\1: backreferences are not supported ${RULE_HINT}`);
    });

    it('requiredMetadataKeyPairs with a lookbehind', async () => {
      await rejected(
        { 'default.requiredMetadataKeyPairs': { metadataPairs: { team: '(?<=x)y' }, matchType: 'regex' } },
        `config.input_guardrails.0.default.requiredMetadataKeyPairs.metadataPairs.team: must not use (?<=: lookahead and lookbehind are not supported ${RULE_HINT}`,
      );
    });

    it('jsonSchema with a backreference in a pattern', async () => {
      await rejected(
        { 'default.jsonSchema': { schema: { type: 'object', patternProperties: { '^(x)\\1$': { type: 'string' } } } } },
        `config.input_guardrails.0.default.jsonSchema.schema: is not a valid JSON Schema (pattern "^(x)\\1$" must not use \\1: backreferences are not supported ${RULE_HINT})`,
      );
    });
  });
});
