/** Typed services (manifest provides / requires, api.services) and typed per-request values. */
import { expect } from 'chai';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createGateway, type Gateway } from '../../host/index.js';
import {
  createLogger, createRootContainer, definePlugin, PluginLoadError, requestKey, RequestValues, ServiceRegistry, Services, serviceKey,
  type PluginClass,
} from '../../core/index.js';
import { DirectoryService, type Directory } from '../../plugins/admin/workspaces/contract.js';
import { RequestLogsService } from '../../plugins/observe/logs/contract.js';
import AnalyticsPlugin from '../../plugins/observe/analytics/index.js';
import SqliteStorePlugin from '../../plugins/stores/sqlite/index.js';

const silent = createLogger('silent');

interface Greeter {
  greet(name: string): string;
}
const GreeterService = serviceKey<Greeter>('test-greeter');

async function boot(plugins: PluginClass[]): Promise<Gateway> {
  return createGateway({ plugins, env: { GW_DATA_DIR: join(tmpdir(), 'gw-services-unused') }, logger: silent, allowUnauthenticated: true });
}

async function bootError(plugins: PluginClass[]): Promise<Error> {
  try {
    const gateway = await boot(plugins);
    await gateway.close();
  } catch (e) {
    return e as Error;
  }
  throw new Error('the boot should have failed');
}

describe('typed services', () => {
  const provider = definePlugin({
    id: 'test.greeter', provides: [GreeterService],
    apply: (api) => api.services.provide(GreeterService, { greet: (name) => `hello ${name}` }),
  });

  it('gives a required service typed, and an absent optional one as undefined', async () => {
    let greeting: string | undefined;
    let directory: Directory | undefined | null = null;
    const consumer = definePlugin({
      id: 'test.consumer', requires: [GreeterService],
      apply: (api) => {
        greeting = api.services.get(GreeterService).greet('gw'); // typed: no cast
        directory = api.services.find(DirectoryService);
      },
    });
    // The consumer is listed first: the loader applies it after the provider of what it requires.
    const gateway = await boot([consumer, provider]);
    try {
      expect(greeting).to.equal('hello gw');
      expect(directory).to.equal(undefined);
      expect(gateway.runtime.services.get(GreeterService).greet('x')).to.equal('hello x');
      expect(gateway.runtime.describe().plugins.find((p) => p.id === 'test.consumer')!.requires).to.deep.equal(['test-greeter']);
    } finally {
      await gateway.close();
    }
  });

  it('refuses to boot when a required service has no provider, naming the service and the plugin that needs it', async () => {
    const consumer = definePlugin({ id: 'test.consumer', requires: [GreeterService], apply: () => undefined });
    const error = await bootError([consumer]);
    expect(error).to.be.instanceOf(PluginLoadError);
    expect(error.message).to.equal('plugin "test.consumer" requires the service "test-greeter", which no loaded plugin provides');
  });

  it('refuses a family service without its provider: observe.analytics without observe.logs', async () => {
    expect(AnalyticsPlugin.manifest.requires).to.deep.equal([RequestLogsService]);
    const error = await bootError([SqliteStorePlugin, AnalyticsPlugin]);
    expect(error.message).to.equal('plugin "observe.analytics" requires the service "request-logs", which no loaded plugin provides');
  });

  it('refuses a provider that does not declare the service it provides', async () => {
    const sneaky = definePlugin({ id: 'test.sneaky', apply: (api) => api.services.provide(GreeterService, { greet: () => '' }) });
    const error = await bootError([sneaky]);
    expect(error.message).to.equal('plugin "test.sneaky" failed to apply: plugin "test.sneaky" provides the service "test-greeter" '
      + 'without declaring it: add it to its manifest "provides"');
  });

  it('refuses a plugin that declares a service it never provides', async () => {
    const idle = definePlugin({ id: 'test.idle', provides: [GreeterService], apply: () => undefined });
    const error = await bootError([idle]);
    expect(error.message).to.equal('plugin "test.idle" failed to apply: it declares the service "test-greeter" in "provides" '
      + 'but did not provide it (api.services.provide)');
  });

  it('names the service and the plugin when get() finds no provider', async () => {
    const eager = definePlugin({ id: 'test.eager', apply: (api) => void api.services.get(GreeterService) });
    const error = await bootError([eager]);
    expect(error.message).to.equal('plugin "test.eager" failed to apply: plugin "test.eager" needs the service "test-greeter", which no loaded plugin provides');
  });

  it('refuses a service named by a string (plugins name services by key)', async () => {
    const old = definePlugin({ id: 'test.old', requires: ['records'] as never, apply: () => undefined });
    const error = await bootError([old]);
    expect(error.message).to.equal('plugin "test.old": manifest "requires" lists "records", which is not a service key '
      + '(use one of Services.* or a key made with serviceKey())');
  });

  it('refuses two different keys with one name', async () => {
    const Other = serviceKey<Greeter>('test-greeter');
    const second = definePlugin({ id: 'test.second', provides: [Other], apply: (api) => api.services.provide(Other, { greet: () => '' }) });
    const error = await bootError([provider, second]);
    expect(error.message).to.equal('plugins "test.greeter" and "test.second" name two different services "test-greeter": '
      + 'import the service key from the module that defines it');
  });

  it('lets plugins require the kernel\'s services without a provider among them', async () => {
    let kernelSeen = false;
    const user = definePlugin({ id: 'test.user', requires: [Services.Transport, Services.Kernel], apply: (api) => void (kernelSeen = api.services.get(Services.Kernel) !== undefined) });
    const gateway = await boot([user]);
    await gateway.close();
    expect(kernelSeen).to.equal(true);
  });

  it('refuses a service provided once the gateway runs', async () => {
    let late: (() => void) | undefined;
    const lazy = definePlugin({
      id: 'test.lazy', provides: [GreeterService],
      apply: (api) => {
        api.services.provide(GreeterService, { greet: () => 'early' });
        late = () => api.services.provide(GreeterService, { greet: () => 'late' });
      },
    });
    const gateway = await boot([lazy]);
    try {
      expect(late).to.throw('service "test-greeter" cannot be provided (by plugin "test.lazy"): the gateway is already running; register at boot, in apply()');
      expect(gateway.runtime.services.get(GreeterService).greet('x')).to.equal('early');
    } finally {
      await gateway.close();
    }
  });

  it('lets a later provider take over, and registers every value under its key\'s container token', () => {
    const container = createRootContainer();
    const registry = new ServiceRegistry(container);
    const first = { greet: () => 'first' };
    const second = { greet: () => 'second' };
    registry.provide(GreeterService, first);
    registry.provide(GreeterService, second);
    expect(registry.get(GreeterService)).to.equal(second);
    expect(container.resolve(GreeterService.token)).to.equal(second);
    let made = 0;
    registry.provideLazily(Services.Settings, () => ({ made: ++made }) as never);
    expect(made).to.equal(0);
    expect(registry.get(Services.Settings)).to.equal(registry.get(Services.Settings));
    expect(made).to.equal(1);
  });
});

describe('typed per-request values', () => {
  interface Tally {
    count: number;
  }
  const TallyKey = requestKey<Tally>('test.tally');
  const NameKey = requestKey<string>('test.name');

  it('round-trips a value by key, typed, and tells keys of the same name apart', () => {
    const values = new RequestValues();
    expect(values.get(TallyKey)).to.equal(undefined);
    expect(values.has(TallyKey)).to.equal(false);
    const tally: Tally = { count: 1 };
    values.set(TallyKey, tally).set(NameKey, 'gw');
    const read: Tally | undefined = values.get(TallyKey);
    expect(read).to.equal(tally);
    expect(values.get(NameKey)!.toUpperCase()).to.equal('GW');
    expect(values.has(requestKey<Tally>('test.tally'))).to.equal(false);
    expect(values.delete(NameKey)).to.equal(true);
    expect(values.has(NameKey)).to.equal(false);
  });

  it('seeds a request from another set of values (requests the gateway sends itself)', () => {
    const seed = new RequestValues().set(NameKey, 'seeded');
    const values = new RequestValues().set(TallyKey, { count: 2 });
    values.copyFrom(seed);
    expect(values.get(NameKey)).to.equal('seeded');
    expect(values.get(TallyKey)).to.deep.equal({ count: 2 });
  });

  it('reaches observers through ctx.values across taps of one request', async () => {
    const seen: (number | undefined)[] = [];
    const counter = definePlugin({
      id: 'test.counter',
      apply: (api) => {
        api.hooks.onRequest.tap(api.id, (ctx) => void ctx.values.set(TallyKey, { count: 1 }));
        api.registries.routes.add({
          method: 'GET', path: '/tally', handler: async (ctx) => {
            ctx.values.get(TallyKey)!.count++;
            return { status: 204, headers: {} };
          },
        });
        api.hooks.onResponse.tap(api.id, (ctx) => void seen.push(ctx.values.get(TallyKey)?.count));
      },
    });
    const gateway = await boot([counter]);
    try {
      const response = await gateway.fetch(new Request('http://gw.test/tally'));
      expect(response.status).to.equal(204);
      expect(seen).to.deep.equal([2]);
    } finally {
      await gateway.close();
    }
  });
});
