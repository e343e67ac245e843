/** The plugin loader: ids, dependencies, options, order; and a user's plugin loaded from a path. */
import { expect } from 'chai';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { createGateway } from '../../host/index.js';
import { createLogger, definePlugin, PluginLoadError, serviceKey, Type, type PluginClass, type ServiceKey } from '../../core/index.js';
import { orderPlugins, type ResolvedEntry } from '../../core/loader.js';

function plugin(id: string, dependsOn: string[] = [], applied: string[] = []): PluginClass {
  return definePlugin({ id, dependsOn, apply: () => void applied.push(id) });
}

const entry = (cls: PluginClass, options?: unknown): ResolvedEntry => ({ cls, options, source: `test:${cls.manifest.id}` });
const silent = createLogger('silent');

async function boot(plugins: (PluginClass | { use: PluginClass; options?: unknown })[], dataDir?: string) {
  return createGateway({ plugins, env: { GW_DATA_DIR: dataDir ?? join(tmpdir(), 'gw-loader-unused') }, logger: silent });
}

describe('plugin loader', () => {
  it('orders plugins after their dependencies, keeping the given order otherwise', () => {
    const ordered = orderPlugins([entry(plugin('a.one', ['b.two'])), entry(plugin('c.three')), entry(plugin('b.two'))]);
    expect(ordered.map((e) => e.cls.manifest.id)).to.deep.equal(['b.two', 'a.one', 'c.three']);
  });

  it('fails on a duplicate id, naming both sources', () => {
    expect(() => orderPlugins([entry(plugin('a.one')), entry(plugin('a.one'))]))
      .to.throw(PluginLoadError, 'duplicate plugin id "a.one" (from test:a.one and test:a.one)');
  });

  it('fails on a missing dependency', () => {
    expect(() => orderPlugins([entry(plugin('a.one', ['store.nothing']))]))
      .to.throw(PluginLoadError, 'plugin "a.one" depends on "store.nothing", which is not loaded');
  });

  it('fails on a dependency cycle', () => {
    expect(() => orderPlugins([entry(plugin('a.one', ['b.two'])), entry(plugin('b.two', ['a.one']))]))
      .to.throw(PluginLoadError, /dependency cycle: a\.one -> b\.two -> a\.one/);
  });

  it('fails on an id that is not <kind>.<name>', () => {
    expect(() => orderPlugins([entry(plugin('nodot'))])).to.throw(PluginLoadError, /must look like <kind>\.<name>/);
  });

  it('validates options with defaults at boot and freezes them', async () => {
    let seen: unknown;
    const withOptions = definePlugin({
      id: 'test.options',
      options: Type.Object({ limit: Type.Integer({ minimum: 1, default: 5 }), name: Type.Optional(Type.String()) }, { additionalProperties: false }),
      apply: (api) => {
        seen = api.options;
      },
    });
    const gw = await boot([withOptions]);
    expect(seen).to.deep.equal({ limit: 5 });
    expect(Object.isFrozen(seen)).to.equal(true);
    await gw.close();
  });

  it('fails on bad options, naming the plugin, the option and the rule', async () => {
    const withOptions = definePlugin({
      id: 'test.options',
      options: Type.Object({ limit: Type.Integer({ minimum: 1, default: 5 }) }, { additionalProperties: false }),
      apply: () => undefined,
    });
    try {
      await boot([{ use: withOptions, options: { limit: 0 } }]);
      expect.fail('should have failed');
    } catch (e) {
      expect(e).to.be.instanceOf(PluginLoadError);
      expect((e as Error).message).to.equal('plugin "test.options": invalid options: limit: must be >= 1');
    }
    try {
      await boot([{ use: withOptions, options: { limt: 3 } }]);
      expect.fail('should have failed');
    } catch (e) {
      expect((e as Error).message).to.equal('plugin "test.options": invalid options: limt: is not an option of plugin "test.options" (known: limit)');
    }
  });

  it('names a misspelt option before the required one it leaves missing', async () => {
    const required = definePlugin({
      id: 'test.required',
      options: Type.Object({ minWords: Type.Integer(), maxWords: Type.Optional(Type.Integer()) }, { additionalProperties: false }),
      apply: () => undefined,
    });
    try {
      await boot([{ use: required, options: { wordz: 3 } }]);
      expect.fail('should have failed');
    } catch (e) {
      expect(e).to.be.instanceOf(PluginLoadError);
      const message = (e as Error).message;
      expect(message).to.match(/^plugin "test.required": invalid options: wordz: is not an option of plugin "test.required" \(known: minWords, maxWords\); minWords: is required/);
    }
  });

  it('fails when a plugin throws while applying, naming it', async () => {
    const broken = definePlugin({ id: 'test.broken', apply: () => { throw new Error('no database'); } });
    try {
      await boot([broken]);
      expect.fail('should have failed');
    } catch (e) {
      expect((e as Error).message).to.equal('plugin "test.broken" failed to apply: no database');
    }
  });

  it('fails when the record store is disabled, naming the service and the first plugin that needs it', async () => {
    try {
      await createGateway({ composition: { disable: ['store.sqlite'] }, env: { GW_DATA_DIR: join(tmpdir(), 'gw-x') }, logger: silent });
      expect.fail('should have failed');
    } catch (e) {
      expect(e).to.be.instanceOf(PluginLoadError);
      expect((e as Error).message).to.equal('plugin "auth.api-key" requires the service "records", which no loaded plugin provides');
    }
  });

  describe('services (provides / requires)', () => {
    type Key = ServiceKey<unknown>;
    const records = serviceKey<unknown>('records');
    const state = serviceKey<unknown>('state');
    const cache = serviceKey<unknown>('cache');
    const service = (id: string, manifest: { provides?: Key[]; requires?: Key[]; dependsOn?: string[] }) =>
      definePlugin({ id, ...manifest, apply: () => undefined });
    const ids = (entries: ResolvedEntry[]) => entries.map((e) => e.cls.manifest.id);

    it('applies a plugin after the provider of a service it requires, wherever the provider is listed', () => {
      const ordered = orderPlugins([
        entry(service('feature.a', { requires: [records] })),
        entry(service('other.b', {})),
        entry(service('store.x', { provides: [records] })),
      ]);
      expect(ids(ordered)).to.deep.equal(['store.x', 'feature.a', 'other.b']);
    });

    it('applies a plugin after every provider of a service, keeping their order so the last one takes over', () => {
      const ordered = orderPlugins([
        entry(service('policy.a', { requires: [state] })),
        entry(service('state.memory', { provides: [state] })),
        entry(service('store.redis', { provides: [state, cache] })),
      ]);
      expect(ids(ordered)).to.deep.equal(['state.memory', 'store.redis', 'policy.a']);
    });

    it('fails when no loaded plugin provides a required service, naming the service and who needs it', () => {
      expect(() => orderPlugins([entry(service('feature.a', { requires: [records] })), entry(service('state.memory', { provides: [state] }))]))
        .to.throw(PluginLoadError, 'plugin "feature.a" requires the service "records", which no loaded plugin provides');
    });

    it('fails on a cycle made through a service', () => {
      expect(() => orderPlugins([
        entry(service('store.x', { provides: [records], dependsOn: ['feature.a'] })),
        entry(service('feature.a', { requires: [records] })),
      ])).to.throw(PluginLoadError, /dependency cycle: store\.x -> feature\.a -> store\.x/);
    });

    it('lets a provider require a service it provides itself without a cycle', () => {
      expect(ids(orderPlugins([entry(service('store.x', { provides: [records], requires: [records] }))]))).to.deep.equal(['store.x']);
    });

    it('has no built-in plugin depending on a store plugin by id (they require services)', async () => {
      const { BUILTIN_PLUGINS } = await import('../../host/builtins.js');
      const named: string[] = [];
      for (const [id, load] of Object.entries(BUILTIN_PLUGINS)) {
        const { manifest } = (await load()).default;
        if ((manifest.dependsOn ?? []).some((dep) => dep.startsWith('store.'))) named.push(id);
      }
      expect(named).to.deep.equal([]);
    });
  });

  describe('a user plugin from a file path', () => {
    let dir: string;
    before(async () => {
      dir = await mkdtemp(join(tmpdir(), 'gw-user-plugin-'));
      // Written as a user would, outside the source tree, importing the package's public entry.
      const entryUrl = pathToFileURL(join(process.cwd(), 'dist/host/index.js')).href;
      await writeFile(join(dir, 'hello-route.mjs'), `
        import { Type, JsonPayload } from '${entryUrl}';
        export default class HelloRoute {
          static manifest = { id: 'acme.hello', options: Type.Object({ greeting: Type.String({ default: 'hello' }) }) };
          apply(api) {
            api.registries.routes.add({ method: 'GET', path: '/v1/acme/hello', handler: async (ctx) => ({
              status: 200, headers: { 'content-type': 'application/json' },
              json: JsonPayload.of({ greeting: api.options.greeting, key: ctx.principal.keyId.length > 0 }),
            }) });
          }
        }`);
      await writeFile(join(dir, 'gateway.json'), JSON.stringify({ plugins: [{ use: './hello-route.mjs', options: { greeting: 'hi there' } }] }));
    });
    after(() => rm(dir, { recursive: true, force: true }));

    it('loads it from a gateway file, relative to the file, with its options', async () => {
      const gw = await createGateway({
        configFile: join(dir, 'gateway.json'),
        env: { GW_DATA_DIR: join(dir, 'data'), GW_BOOTSTRAP_API_KEY: 'k-user' },
        logger: silent,
      });
      try {
        expect(gw.runtime.plugins.map((p) => p.id)).to.include('acme.hello');
        const res = await gw.fetch(new Request('http://gw.local/v1/acme/hello', { headers: { 'x-gw-api-key': 'k-user' } }));
        expect(res.status).to.equal(200);
        expect(await res.json()).to.deep.equal({ greeting: 'hi there', key: true });
        const denied = await gw.fetch(new Request('http://gw.local/v1/acme/hello'));
        expect(denied.status).to.equal(401);
      } finally {
        await gw.close();
      }
    });

    it('fails clearly for a path that does not exist or a module without a plugin', async () => {
      await writeFile(join(dir, 'not-a-plugin.mjs'), 'export const x = 1;');
      for (const [use, message] of [['./missing.mjs', 'cannot load plugin module'], ['./not-a-plugin.mjs', 'must export a plugin class']]) {
        await writeFile(join(dir, 'bad.json'), JSON.stringify({ plugins: [use] }));
        try {
          await createGateway({ configFile: join(dir, 'bad.json'), env: { GW_DATA_DIR: join(dir, 'data') }, logger: silent });
          expect.fail('should have failed');
        } catch (e) {
          expect((e as Error).message).to.contain(message);
        }
      }
    });

    it('fails clearly for an unknown built-in id and an unknown gateway-file key', async () => {
      await writeFile(join(dir, 'bad.json'), JSON.stringify({ plugins: ['provider.nowhere'] }));
      await expectBootError(join(dir, 'bad.json'), 'unknown plugin "provider.nowhere"');
      await writeFile(join(dir, 'bad.json'), JSON.stringify({ plugin: [] }));
      await expectBootError(join(dir, 'bad.json'), 'unknown key "plugin"');
    });

    async function expectBootError(file: string, message: string) {
      try {
        await createGateway({ configFile: file, env: { GW_DATA_DIR: join(dir, 'data') }, logger: silent });
        expect.fail('should have failed');
      } catch (e) {
        expect((e as Error).message).to.contain(message);
      }
    }
  });
});
