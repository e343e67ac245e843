/** Guardrail configs are validated when they are loaded: a 400 naming the path and the rule, before any call. */
import { expect } from 'chai';
import sinon from 'sinon';
import { GuardrailStoreService, type GuardrailStore, type Plugin, type PluginApi } from '../../../../core/index.js';
import type { MockOpenAI } from '../../../fixtures/mock-openai.js';
import type { TestGateway } from '../../../helpers/gateway.js';
import { chat, closeAll, leaf, maxWords, send, startGuardedGateway, startMocks } from './harness.js';

/** A stand-in for the control plane's guardrail store. */
const STORED: Record<string, Record<string, unknown>> = {
  'pii-guard': { id: 'pii-guard', deny: true, 'test.forbid': { word: 'ssn' } },
  'hook-style': { id: 'hook-style', deny: true, checks: [{ id: 'test.maxWords', parameters: { max: 2 } }] },
  broken: { 'test.maxWords': { max: 'many' } },
};

class TestGuardrailStore implements Plugin {
  static readonly manifest = { id: 'test.guardrail-store', description: 'stored guardrails for tests', provides: [GuardrailStoreService] };
  apply(api: PluginApi): void {
    const store: GuardrailStore = { get: (id) => STORED[id] };
    api.services.provide(GuardrailStoreService, store);
  }
}

describe('guardrails.runner: config validation', () => {
  let mocks: MockOpenAI[];
  before(async () => {
    mocks = await startMocks(1);
  });
  after(() => closeAll(mocks));

  describe('without a guardrail store', () => {
    let gw: TestGateway;
    before(async () => {
      gw = await startGuardedGateway();
    });
    after(() => gw.stop());
    afterEach(() => mocks[0]!.reset());

    async function rejects(config: Record<string, unknown>, message: string, param?: string) {
      const res = await send(gw, config, chat('hi'));
      expect(res.status, res.text).to.equal(400);
      expect(res.json.error.code).to.equal('invalid_config');
      expect(res.json.error.message).to.equal(message);
      if (param) expect(res.json.error.param).to.equal(param);
      expect(mocks[0]!.requests).to.have.length(0);
    }

    it('rejects an unknown check id in an inline guardrail, naming the path and the id', async () => {
      const res = await send(gw, leaf(mocks[0]!, { input_guardrails: [{ 'acme.nope': {} }] }), chat('hi'));
      expect(res.status).to.equal(400);
      expect(res.json.error.message).to.match(/^config\.input_guardrails\.0\.acme\.nope: unknown check "acme\.nope" \(loaded: .*test\.forbid/);
    });

    it('rejects an unknown check id in a hook, at checks.N.id, also in a nested target', async () => {
      const config = { strategy: { mode: 'fallback' }, targets: [leaf(mocks[0]!), leaf(mocks[0]!, { before_request_hooks: [{ id: 'h', checks: [{ id: 'test.forbid', parameters: { word: 'x' } }, { id: 'acme.nope', parameters: {} }] }] })] };
      const res = await send(gw, config, chat('hi'));
      expect(res.status).to.equal(400);
      expect(res.json.error.message).to.match(/^config\.targets\.1\.before_request_hooks\.0\.checks\.1\.id: unknown check "acme\.nope"/);
    });

    it('rejects bad params, naming the param path', async () => {
      await rejects(leaf(mocks[0]!, { output_guardrails: [{ 'test.maxWords': { max: 'five' } }] }), 'config.output_guardrails.0.test.maxWords.max: must be an integer', 'output_guardrails.0.test.maxWords.max');
      await rejects(leaf(mocks[0]!, { output_guardrails: [{ 'test.maxWords': {} }] }), 'config.output_guardrails.0.test.maxWords.max: is required');
      await rejects(leaf(mocks[0]!, { output_guardrails: [{ 'test.maxWords': { max: 4, extra: 1 } }] }), 'config.output_guardrails.0.test.maxWords.extra: is not an allowed key');
      await rejects(leaf(mocks[0]!, { after_request_hooks: [{ id: 'h', checks: [{ id: 'test.maxWords', parameters: { max: 0 } }] }] }), 'config.after_request_hooks.0.checks.0.parameters.max: must be >= 1');
    });

    it("runs a check's own rules after its schema", async () => {
      await rejects(leaf(mocks[0]!, { input_guardrails: [{ 'test.maxWords': { max: 3 } }] }), 'config.input_guardrails.0.test.maxWords.max: must be even');
    });

    it('validates the runner params every check accepts (timeout, failOnError), even against a strict schema', async () => {
      await rejects(leaf(mocks[0]!, { input_guardrails: [{ 'test.maxWords': { max: 4, timeout: 0 } }] }), 'config.input_guardrails.0.test.maxWords.timeout: must be >= 1');
      await rejects(leaf(mocks[0]!, { input_guardrails: [{ 'test.maxWords': { max: 4, timeout: 999_999 } }] }), 'config.input_guardrails.0.test.maxWords.timeout: must be <= 60000');
      await rejects(leaf(mocks[0]!, { input_guardrails: [{ 'test.maxWords': { max: 4, failOnError: 'yes' } }] }), 'config.input_guardrails.0.test.maxWords.failOnError: must be a boolean');
      const ok = await send(gw, leaf(mocks[0]!, { input_guardrails: [{ 'test.maxWords': { max: 4, timeout: 500, failOnError: true } }] }), chat('hi'));
      expect(ok.status).to.equal(200);
    });

    it('rejects a check in a phase it does not support', async () => {
      await rejects(leaf(mocks[0]!, { output_guardrails: [{ 'test.requireMeta': { key: 'team' } }] }),
        'config.output_guardrails.0.test.requireMeta: check "test.requireMeta" does not run in the output phase (it runs in: beforeRequest, input)');
    });

    it('rejects a stored guardrail id when no store knows it', async () => {
      await rejects(leaf(mocks[0]!, { input_guardrails: ['x'] }), 'config.input_guardrails.0: unknown guardrail "x"', 'input_guardrails.0');
    });

    it('validates params once per config: requests with the same config do not re-validate', async () => {
      const spy = sinon.spy(maxWords, 'validate');
      try {
        const config = leaf(mocks[0]!, { input_guardrails: [{ 'test.maxWords': { max: 8 } }] });
        for (let i = 0; i < 3; i++) expect((await send(gw, config, chat('hi'))).status).to.equal(200);
        expect(spy.callCount).to.equal(1);
      } finally {
        spy.restore();
      }
    });

    it('applies param defaults from the check schema', async () => {
      const res = await send(gw, leaf(mocks[0]!, { input_guardrails: [{ 'test.slow': { ms: 0 } }] }), chat('hi'));
      expect(res.json.hook_results.before_request_hooks[0].checks[0].data).to.deep.equal({ slept: 0, label: 'slow' });
    });
  });

  describe('with a guardrail store', () => {
    let gw: TestGateway;
    before(async () => {
      gw = await startGuardedGateway({ plugins: [TestGuardrailStore] });
    });
    after(() => gw.stop());

    it('resolves stored guardrails by id, inline-style and hook-style', async () => {
      const config = leaf(mocks[0]!, { input_guardrails: ['pii-guard', 'hook-style'] });
      const ok = await send(gw, config, chat('hi there'));
      expect(ok.status).to.equal(200);
      expect(ok.json.hook_results.before_request_hooks.map((h: { id: string }) => h.id)).to.deep.equal(['pii-guard', 'hook-style']);
      const denied = await send(gw, config, chat('my ssn'));
      expect(denied.status).to.equal(446);
      const long = await send(gw, config, chat('one two three'));
      expect(long.status).to.equal(446);
      expect(long.json.error.message).to.contain('"hook-style"');
    });

    it('picks up a stored guardrail that changed (or was removed) for a config it already compiled', async () => {
      STORED['mutable'] = { id: 'mutable', deny: true, 'test.forbid': { word: 'alpha' } };
      try {
        const config = leaf(mocks[0]!, { input_guardrails: ['mutable'] });
        expect((await send(gw, config, chat('alpha beta'))).status).to.equal(446);
        STORED['mutable'] = { id: 'mutable', deny: true, 'test.forbid': { word: 'beta' } };
        const changed = await send(gw, config, chat('alpha'));
        expect(changed.status).to.equal(200);
        expect((await send(gw, config, chat('beta'))).status).to.equal(446);
        delete STORED['mutable'];
        const removed = await send(gw, config, chat('alpha'));
        expect(removed.status).to.equal(400);
        expect(removed.json.error.message).to.equal('config.input_guardrails.0: unknown guardrail "mutable"');
      } finally {
        delete STORED['mutable'];
      }
    });

    it('reports an unknown id, and a stored guardrail that is itself invalid, at the reference', async () => {
      const unknown = await send(gw, leaf(mocks[0]!, { output_guardrails: ['nope'] }), chat('hi'));
      expect(unknown.json.error.message).to.equal('config.output_guardrails.0: unknown guardrail "nope"');
      const broken = await send(gw, leaf(mocks[0]!, { output_guardrails: ['broken'] }), chat('hi'));
      expect(broken.status).to.equal(400);
      expect(broken.json.error.message).to.equal('config.output_guardrails.0: stored guardrail "broken": test.maxWords.max: must be an integer');
    });
  });
});
