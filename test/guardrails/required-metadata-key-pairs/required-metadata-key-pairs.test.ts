import { expect } from 'chai';
import type { Runtime } from '../../../core/index.js';
import RequiredMetadataKeyPairsGuardrail from '../../../guardrails/required-metadata-key-pairs/index.js';
import type { RequiredMetadataKeyPairsParams } from '../../../guardrails/required-metadata-key-pairs/params.js';
import { CTX, input, loadCheck, run, validateParams, type TestableCheck } from '../helpers.js';

describe('guardrail default.requiredMetadataKeyPairs', () => {
  let check: TestableCheck<RequiredMetadataKeyPairsParams>;
  let runtime: Runtime;
  before(async () => ({ check, runtime } = await loadCheck(RequiredMetadataKeyPairsGuardrail, 'default.requiredMetadataKeyPairs')));
  after(() => runtime.close());

  const meta = (metadata: Record<string, string>) => input('hi', { metadata });

  describe('params', () => {
    it('defaults: operator all, matchType exact', () => {
      expect(validateParams(check, { metadataPairs: { team: 'a' } }).value).to.deep.equal({ metadataPairs: { team: 'a' }, operator: 'all', matchType: 'exact' });
    });
    it('requires at least one pair of string (or string list) values', () => {
      expect(validateParams(check, {}).issues[0]).to.deep.equal({ path: 'metadataPairs', rule: 'is required' });
      expect(validateParams(check, { metadataPairs: {} }).issues[0]!.rule).to.equal('must be an object with at least one key: value pair');
      expect(validateParams(check, { metadataPairs: { a: 1 } }).issues[0]).to.deep.equal({ path: 'metadataPairs.a', rule: 'must be a string or an array of strings' });
      expect(validateParams(check, { metadataPairs: { a: 'x' }, matchType: 'fuzzy' }).issues[0]!.path).to.equal('matchType');
    });
    it('rejects a bad regex when matchType is regex, at config time', () => {
      expect(validateParams(check, { metadataPairs: { a: '[' }, matchType: 'regex' }).issues[0]!.path).to.equal('metadataPairs.a');
      expect(validateParams(check, { metadataPairs: { a: '[' } }).ok).to.equal(true);
    });
  });

  it('exact + all: every pair present with its value', async () => {
    const params = { metadataPairs: { team: 'search', env: 'prod' } };
    expect(await run(check, params, meta({ team: 'search', env: 'prod', extra: 'x' }))).to.deep.equal({ verdict: true, data: { matchedPairs: 2 } });
    const partial = await run(check, params, meta({ team: 'search', env: 'dev' }));
    expect(partial.verdict).to.equal(false);
    expect(partial.data).to.deep.equal({ matchedKeys: ['team'], unmatchedKeys: ['env'], explanation: '1 of 2 pair(s) matched; operator "all" failed' });
    expect((await run(check, params, meta({}))).verdict).to.equal(false);
    expect((await run(check, { metadataPairs: { env: ['prod', 'staging'] } }, meta({ env: 'staging' }))).verdict).to.equal(true);
  });

  it('any and none', async () => {
    const pairs = { team: 'search', env: 'prod' };
    expect((await run(check, { metadataPairs: pairs, operator: 'any' }, meta({ env: 'prod' }))).verdict).to.equal(true);
    expect((await run(check, { metadataPairs: pairs, operator: 'any' }, meta({ env: 'dev' }))).verdict).to.equal(false);
    expect((await run(check, { metadataPairs: pairs, operator: 'none' }, meta({ env: 'dev' }))).verdict).to.equal(true);
    expect((await run(check, { metadataPairs: pairs, operator: 'none' }, meta({ team: 'search' }))).verdict).to.equal(false);
  });

  it('contains, containsAll and regex match types', async () => {
    expect((await run(check, { metadataPairs: { user: '@acme.com' }, matchType: 'contains' }, meta({ user: 'ada@acme.com' }))).verdict).to.equal(true);
    expect((await run(check, { metadataPairs: { user: '@acme.com' }, matchType: 'contains' }, meta({ user: 'ada@other.com' }))).verdict).to.equal(false);
    const all = { metadataPairs: { scopes: ['read', 'write'] }, matchType: 'containsAll' };
    expect((await run(check, all, meta({ scopes: 'read,write,admin' }))).verdict).to.equal(true);
    expect((await run(check, all, meta({ scopes: 'read' }))).verdict).to.equal(false);
    const regex = { metadataPairs: { ticket: '^JIRA-\\d+$' }, matchType: 'regex' };
    expect((await run(check, regex, meta({ ticket: 'JIRA-42' }))).verdict).to.equal(true);
    expect((await run(check, regex, meta({ ticket: 'jira-42' }))).verdict).to.equal(false);
  });

  it('unicode values; prototype keys are not metadata', async () => {
    expect((await run(check, { metadataPairs: { city: 'Zürich' } }, meta({ city: 'Zürich' }))).verdict).to.equal(true);
    expect((await run(check, { metadataPairs: { constructor: 'x' } }, meta({}))).verdict).to.equal(false);
  });

  it('builds its matchers once per params object (cheap on the hot path)', async () => {
    const params = validateParams(check, { metadataPairs: { a: '^x', b: 'y' }, matchType: 'regex' }).value;
    const ok = meta({ a: 'xx', b: 'yy' });
    const started = performance.now();
    for (let i = 0; i < 20000; i++) check.check(ok, params, CTX);
    expect(performance.now() - started).to.be.below(200);
  });
});
