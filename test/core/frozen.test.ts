/**
 * Frozen after boot: once `ready` ran, registries, the router and the hooks refuse registrations
 * (the error names the plugin when known); taps are at named stages only; the gateway still serves.
 */
import { expect } from 'chai';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createGateway, type Gateway } from '../../host/index.js';
import { createOpenAIAdapter } from '../../providers/openai/adapter.js';
import {
  createLogger, definePlugin, JsonPayload, Stage, WrapStage, type PluginApi, type RouteDef,
} from '../../core/index.js';
import { jsonReply, startGateway, type TestGateway } from '../helpers/gateway.js';

const silent = createLogger('silent');
const hello: RouteDef = {
  method: 'GET',
  path: '/v1/acme/hello',
  protected: false,
  body: 'none',
  handler: async () => ({ status: 200, headers: { 'content-type': 'application/json' }, json: JsonPayload.of({ hello: 'world' }) }),
};

/** A plugin that keeps its api, so the test can try registering after boot; it also registers from `ready`. */
function keeper() {
  const kept: { api?: PluginApi } = {};
  const cls = definePlugin({
    id: 'acme.keeper',
    apply(api) {
      kept.api = api;
      api.registries.routes.add(hello);
      // `ready` runs before the freeze: background setup may still register there.
      api.hooks.ready.tapPromise(api.id, async () => {
        api.registries.providers.register('acme-ready', createOpenAIAdapter('acme-ready'), api.id);
      });
    },
  });
  return { cls, kept };
}

describe('frozen after boot', () => {
  let gw: TestGateway;
  let kept: { api?: PluginApi };

  before(async () => {
    const k = keeper();
    kept = k.kept;
    gw = await startGateway({ composition: { preset: 'none', plugins: [k.cls] } });
  });
  after(() => gw?.stop());

  it('a registration made in a ready tap is kept', () => {
    expect(gw.gateway.runtime.registries.providers.has('acme-ready')).to.equal(true);
  });

  it('a late registry registration throws, naming the plugin and that the gateway runs', () => {
    const api = kept.api!;
    expect(() => api.registries.providers.register('acme-late', createOpenAIAdapter('acme-late'), api.id))
      .to.throw('provider "acme-late" cannot be registered (by plugin "acme.keeper"): the gateway is already running');
    expect(() => api.registries.strategies.register('acme-last', { mode: 'acme-last', route: async () => ({ status: 500, retries: 0 }) }, api.id))
      .to.throw(/strategy "acme-last" cannot be registered \(by plugin "acme.keeper"\): the gateway is already running/);
    expect(() => gw.gateway.runtime.registries.health.register('acme.probe', () => true))
      .to.throw('health check "acme.probe" cannot be registered: the gateway is already running');
    expect(api.registries.providers.has('acme-late')).to.equal(false);
    expect(api.registries.strategies.has('acme-last')).to.equal(false);
  });

  it('a late route throws, and the table is unchanged', () => {
    const routes = gw.gateway.runtime.registries.routes;
    const before = routes.list().length;
    expect(() => routes.add({ ...hello, path: '/v1/acme/late' }))
      .to.throw('route GET /v1/acme/late cannot be added: the gateway is already running');
    expect(routes.list().length).to.equal(before);
    expect(routes.match('GET', '/v1/acme/late').route).to.equal(undefined);
  });

  it('a late tap or interceptor throws through the plugin view, naming the plugin', () => {
    const api = kept.api!;
    expect(() => api.hooks.onRequest.tap({ name: api.id, stage: Stage.AUTH }, () => undefined))
      .to.throw('a tap on onRequest cannot be added (by plugin "acme.keeper"): the gateway is already running');
    expect(() => api.hooks.preRoute.tapPromise(api.id, async () => undefined))
      .to.throw(/a tap on preRoute cannot be added \(by plugin "acme.keeper"\)/);
    expect(() => api.hooks.onRequest.intercept({}))
      .to.throw(/an interceptor on onRequest cannot be added \(by plugin "acme.keeper"\)/);
  });

  it('a late tap on the hooks themselves throws too, and leaves the taps as they were', () => {
    const hooks = gw.gateway.runtime.hooks;
    const before = gw.gateway.runtime.describe().hooks.find((h) => h.name === 'respond')!.taps.length;
    expect(() => hooks.respond.tap('host.late', (r) => r)).to.throw('a tap on respond cannot be added: the gateway is already running');
    expect(() => hooks.onResponse.tapPromise('host.late', async () => undefined)).to.throw(/already running/);
    expect(gw.gateway.runtime.describe().hooks.find((h) => h.name === 'respond')!.taps.length).to.equal(before);
  });

  it('still serves after the failed late registrations', async () => {
    const reply = await jsonReply(await fetch(`${gw.url}/v1/acme/hello`));
    expect(reply.status).to.equal(200);
    expect(reply.json).to.deep.equal({ hello: 'world' });
  });
});

describe('named stages only', () => {
  const env = { GW_DATA_DIR: join(tmpdir(), 'gw-stages-unused') };
  const bootWith = (apply: (api: PluginApi) => void): Promise<Gateway> =>
    createGateway({ plugins: [definePlugin({ id: 'acme.stager', apply })], env, logger: silent });

  it('refuses a tap at a stage computed from a name, naming plugin, hook and stage', async () => {
    const error = await bootWith((api) => api.hooks.onRequest.tap({ name: api.id, stage: Stage.AUTH + 1 }, () => undefined)).then(
      () => undefined,
      (e: Error) => e,
    );
    expect(error?.message).to.equal('plugin "acme.stager" failed to apply: plugin "acme.stager" taps onRequest at stage -499: use a named stage (Stage.*)');
  });

  it('checks wrapAttempt taps against WrapStage names', async () => {
    const error = await bootWith((api) => api.hooks.wrapAttempt.tap({ name: api.id, stage: Stage.AUTH }, (run) => run)).then(
      () => undefined,
      (e: Error) => e,
    );
    expect(error?.message).to.match(/taps wrapAttempt at stage -500: use a named stage \(WrapStage\.\*\)/);
  });

  it('accepts named stages and taps without a stage (DEFAULT), and records them in run order', async () => {
    const gateway = await bootWith((api) => {
      api.hooks.respond.tap({ name: api.id, stage: Stage.OBSERVE }, (r) => r);
      api.hooks.respond.tap(api.id, (r) => r);
      api.hooks.respond.tap({ name: 'some-other-name', stage: Stage.FIRST }, (r) => r);
      api.hooks.wrapAttempt.tap({ name: api.id, stage: WrapStage.AFTER_BREAKER }, (run) => run);
    });
    try {
      const hooks = gateway.runtime.describe().hooks;
      // The plugin is recorded, whatever name the tap carries.
      expect(hooks.find((h) => h.name === 'respond')!.taps).to.deep.equal([
        { plugin: 'acme.stager', stage: 'FIRST' },
        { plugin: 'acme.stager', stage: 'DEFAULT' },
        { plugin: 'acme.stager', stage: 'OBSERVE' },
      ]);
      expect(hooks.find((h) => h.name === 'wrapAttempt')!.taps).to.deep.equal([{ plugin: 'acme.stager', stage: 'AFTER_BREAKER' }]);
    } finally {
      await gateway.close();
    }
  });
});
