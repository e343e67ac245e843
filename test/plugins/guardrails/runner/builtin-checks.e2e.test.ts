/**
 * The runner with the built-in checks of guardrails/ (regex, word count, required metadata): the
 * set-up of the `guardrails` bench scenario. Skipped while those plugins are not built.
 */
import { expect } from 'chai';
import type { PluginClass } from '../../../../core/index.js';
import type { MockOpenAI } from '../../../fixtures/mock-openai.js';
import type { TestGateway } from '../../../helpers/gateway.js';
import { chat, closeAll, leaf, send, startGuardedGateway, startMocks } from './harness.js';

const BUILT_INS = ['regex-match', 'word-count', 'required-metadata-key-pairs'];

describe('guardrails.runner with the built-in checks', () => {
  let gw: TestGateway | undefined;
  let mocks: MockOpenAI[] = [];

  before(async function () {
    let plugins: PluginClass[];
    try {
      plugins = await Promise.all(BUILT_INS.map(async (name) => ((await import(`../../../guardrails/${name}/index.js`)) as { default: PluginClass }).default));
    } catch {
      this.skip();
    }
    gw = await startGuardedGateway({ plugins });
    mocks = await startMocks(1);
  });
  after(async () => {
    await closeAll(mocks);
    await gw?.stop();
  });

  const checks = (pattern: string) => ({
    'default.regexMatch': { rule: pattern },
    'default.wordCount': { minWords: 1, maxWords: 50 },
    'default.requiredMetadataKeyPairs': { metadataPairs: { team: 'search' } },
  });
  const config = () => leaf(mocks[0]!, {
    input_guardrails: [{ id: 'in', deny: true, ...checks('\\w') }],
    output_guardrails: [{ id: 'out', deny: true, ...checks('^echo') }],
  });
  const team = { 'x-gw-metadata': JSON.stringify({ team: 'search' }) };

  it('passes a conforming request and answer: 200 with every check in hook_results', async () => {
    const res = await send(gw!, config(), chat('say hello'), team);
    expect(res.status, res.text).to.equal(200);
    const { before_request_hooks: before, after_request_hooks: after } = res.json.hook_results;
    expect(before[0].checks.map((c: { id: string; verdict: boolean }) => [c.id, c.verdict])).to.deep.equal([
      ['default.regexMatch', true], ['default.wordCount', true], ['default.requiredMetadataKeyPairs', true],
    ]);
    // Passing checks report their findings only: no params echoed back, no explanation.
    expect(before[0].checks.map((c: { data: unknown }) => c.data)).to.deep.equal([{ match: 's' }, { wordCount: 2 }, { matchedPairs: 1 }]);
    expect(after[0]).to.include({ id: 'out', verdict: true });
  });

  it('denies a request without the required metadata (446) before the provider', async () => {
    const res = await send(gw!, config(), chat('say hello'));
    expect(res.status).to.equal(446);
    const failed = res.json.hook_results.before_request_hooks[0].checks.filter((c: { verdict: boolean }) => !c.verdict);
    expect(failed.map((c: { id: string }) => c.id)).to.deep.equal(['default.requiredMetadataKeyPairs']);
    expect(failed[0].data).to.deep.equal({ matchedKeys: [], unmatchedKeys: ['team'], explanation: '0 of 1 pair(s) matched; operator "all" failed' });
  });

  it('rejects bad built-in params with a 400 at validation', async () => {
    const res = await send(gw!, leaf(mocks[0]!, { output_guardrails: [{ 'default.wordCount': { maxWords: -1 } }] }), chat('hi'));
    expect(res.status).to.equal(400);
    expect(res.json.error.message).to.equal('config.output_guardrails.0.default.wordCount.maxWords: must be >= 0');
  });
});
