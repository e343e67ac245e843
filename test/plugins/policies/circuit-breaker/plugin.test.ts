/** The plugin's contract with the loader: a state store must be registered; it is resolved at first use. */
import { expect } from 'chai';
import sinon from 'sinon';
import {
  ConfigKeys, createLogger, ServiceRegistry, Services,
  type Attempt, type AttemptRunner, type GatewaySettings, type Outcome, type PluginApi, type Target,
} from '../../../../core/index.js';
import { createHooks, tapOnly } from '../../../../core/hooks.js';
import { createRegistries } from '../../../../core/registries.js';
import { createRootContainer } from '../../../../core/di.js';
import CircuitBreakerPlugin from '../../../../plugins/policies/circuit-breaker/index.js';
import { RecordingStore } from './test-store.js';

function pluginApi() {
  const hooks = createHooks();
  const container = createRootContainer();
  const services = new ServiceRegistry(container);
  const api: PluginApi = {
    id: CircuitBreakerPlugin.manifest.id,
    hooks: tapOnly(hooks),
    registries: createRegistries(),
    services: services.viewFor(CircuitBreakerPlugin.manifest.id, []),
    container,
    options: {},
    settings: {} as GatewaySettings,
    logger: createLogger('silent'),
    configKeys: new ConfigKeys([], createRegistries()),
  };
  return { api, hooks, services };
}

function target(fields: Record<string, unknown>): Target {
  const t = { provider: 'openai', ...fields } as Target;
  Object.defineProperty(t, '$path', { value: 'config', enumerable: false });
  return t;
}

describe('circuit-breaker: plugin', () => {
  it('depends on no plugin, only on the state service (any plugin providing it will do)', () => {
    expect(CircuitBreakerPlugin.manifest).to.not.have.property('dependsOn');
    expect(CircuitBreakerPlugin.manifest.requires).to.deep.equal([Services.State]);
    expect(CircuitBreakerPlugin.manifest.id).to.equal('policy.circuit-breaker');
  });

  it('fails to apply with a clear message when no state store is registered', () => {
    const { api } = pluginApi();
    expect(() => new CircuitBreakerPlugin().apply(api)).to.throw(/no state store is registered .*state\.memory/);
  });

  it('leaves targets without cb_config unwrapped, and resolves the store only when it needs it, once', async () => {
    const { api, hooks, services } = pluginApi();
    const factory = sinon.spy(() => new RecordingStore());
    services.provideLazily(Services.State, factory);
    new CircuitBreakerPlugin().apply(api);
    expect(factory.callCount).to.equal(0);

    const failing: AttemptRunner = async (): Promise<Outcome> => ({ status: 503, retries: 0 });
    expect(hooks.wrapAttempt.call(failing, target({}))).to.equal(failing);

    const guarded = target({ cb_config: { failure_threshold: 5, cooldown_interval: 30000 } });
    const attempt = { target: guarded, signal: new AbortController().signal } as unknown as Attempt;
    const succeeding: AttemptRunner = async (): Promise<Outcome> => ({ status: 200, retries: 0 });
    const wrapped = hooks.wrapAttempt.call(succeeding, guarded);
    expect(wrapped).to.not.equal(succeeding);
    await wrapped(attempt);
    expect(factory.callCount).to.equal(0); // the healthy path never touches the store

    for (let i = 0; i < 3; i++) await hooks.wrapAttempt.call(failing, guarded)(attempt);
    expect(factory.callCount).to.equal(1);
  });
});
