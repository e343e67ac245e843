/**
 * Plugin files outside the repository (a folder under os.tmpdir()) import from 'gw' and 'gw/core'
 * without an npm install, load from .ts with types, and fail with file:line:column or the unknown
 * option's name: through a gateway file of a real `main.js` process and through createGateway.
 */
import { expect } from 'chai';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createGateway, PluginLoadError } from '../../host/index.js';
import { BUNDLED_MAIN, MAIN, spawnMain, type MainProcess } from '../helpers/main-process.js';

const MJS_PLUGIN = `
import { definePlugin, Type, JsonPayload, Errors } from 'gw';
export default definePlugin({
  id: 'acme.hello',
  options: Type.Object({ greeting: Type.String({ default: 'hello' }) }, { additionalProperties: false }),
  apply(api) {
    api.registries.routes.add({
      method: 'GET', path: '/acme/hello', protected: false, body: 'none',
      async handler(ctx) {
        const who = ctx.request.query.get('who');
        // Errors comes from the gateway's own module: the host renders it as the 4xx envelope.
        if (!who) throw Errors.invalidBody('who', 'is required');
        return { status: 200, headers: { 'content-type': 'application/json' }, json: JsonPayload.of({ text: api.options.greeting + ' ' + who }) };
      },
    });
  },
});
`;

const TS_PLUGIN = `
import { definePlugin, JsonPayload, type PluginApi } from 'gw/core';
import { shout } from './shout.js';

interface Reply { text: string; from: string }

function reply(api: PluginApi): Reply {
  return { text: shout('typed'), from: api.id };
}

export default definePlugin({
  id: 'acme.typed',
  apply(api: PluginApi): void {
    api.registries.routes.add({
      method: 'GET', path: '/acme/typed', protected: false, body: 'none',
      handler: async () => ({ status: 200, headers: { 'content-type': 'application/json' }, json: JsonPayload.of(reply(api)) }),
    });
  },
});
`;

/** Services and per-request values through 'gw' and 'gw/contracts': its own service, a kernel one, an optional family one. */
const TS_SERVICES_PLUGIN = `
import { definePlugin, requestKey, serviceKey, Services, JsonPayload } from 'gw';
import { DirectoryService } from 'gw/contracts';

interface Counter { next(): number }
const CounterService = serviceKey<Counter>('acme-counter');
const SeenKey = requestKey<number>('acme.seen');

export default definePlugin({
  id: 'acme.counter',
  provides: [CounterService],
  requires: [Services.Transport],
  apply(api) {
    let n = 0;
    api.services.provide(CounterService, { next: () => ++n });
    const counter: Counter = api.services.get(CounterService);
    api.hooks.onRequest.tap(api.id, (ctx) => { ctx.values.set(SeenKey, counter.next()); });
    api.registries.routes.add({
      method: 'GET', path: '/acme/count', body: 'none',
      handler: async (ctx) => ({ status: 200, headers: { 'content-type': 'application/json' }, json: JsonPayload.of({
        seen: ctx.values.get(SeenKey) ?? null,
        directory: api.services.find(DirectoryService) !== undefined,
        transport: api.services.has(Services.Transport),
      }) }),
    });
  },
});
`;

const TS_HELPER = `export const shout = (text: string): string => text.toUpperCase() + '!';\n`;

const TS_SYNTAX_ERROR = `import { definePlugin } from 'gw';\nconst limit: number = ;\nexport default definePlugin({ id: 'acme.broken', apply() {} });\n`;
const MJS_SYNTAX_ERROR = `import { definePlugin } from 'gw';\nconst table = {\n  a: 1 2\n};\nexport default definePlugin({ id: 'acme.broken', apply() {} });\n`;

const MISSPELT_OPTION = `
import { definePlugin, Type } from 'gw';
export default definePlugin({
  id: 'acme.words',
  options: Type.Object({ minWords: Type.Integer(), maxWords: Type.Optional(Type.Integer()) }, { additionalProperties: false }),
  apply() {},
});
`;

describe('user plugins from anywhere', () => {
  let folder: string;
  let dataDir: string;

  before(async () => {
    folder = await mkdtemp(join(tmpdir(), 'gw-user-plugins-'));
    dataDir = await mkdtemp(join(tmpdir(), 'gw-user-plugins-data-'));
    await writeFile(join(folder, 'hello.mjs'), MJS_PLUGIN);
    await writeFile(join(folder, 'typed.ts'), TS_PLUGIN);
    await writeFile(join(folder, 'shout.ts'), TS_HELPER);
    await writeFile(join(folder, 'counter.ts'), TS_SERVICES_PLUGIN);
    await writeFile(join(folder, 'broken.ts'), TS_SYNTAX_ERROR);
    await writeFile(join(folder, 'broken.mjs'), MJS_SYNTAX_ERROR);
    await writeFile(join(folder, 'words.mjs'), MISSPELT_OPTION);
  });
  after(async () => {
    await rm(folder, { recursive: true, force: true });
    await rm(dataDir, { recursive: true, force: true });
  });

  async function gatewayFile(name: string, body: object): Promise<string> {
    const file = join(folder, name);
    await writeFile(file, JSON.stringify(body));
    return file;
  }

  const env = () => ({ PORT: '0', GW_DATA_DIR: dataDir, GW_LOG_LEVEL: 'silent' });

  async function bootFails(file: string): Promise<string> {
    try {
      const main = await spawnMain(['--config', file], env());
      main.child.kill('SIGKILL');
      expect.fail('the gateway should have refused to boot');
    } catch (e) {
      return (e as Error).message;
    }
    return '';
  }

  for (const entry of [MAIN, BUNDLED_MAIN]) describe(`in a ${entry} process started with --config`, () => {
    let main: MainProcess;
    before(async () => {
      const file = await gatewayFile('gateway.json', {
        preset: 'none',
        plugins: [{ use: './hello.mjs', options: { greeting: 'hi' } }, './typed.ts'],
      });
      main = await spawnMain(['--config', file], env(), entry);
    });
    after(() => {
      main?.child.kill('SIGTERM');
    });

    it("serves a .mjs plugin that imports from 'gw' without an npm install", async () => {
      const res = await fetch(`${main.url}/acme/hello?who=ada`);
      expect(res.status).to.equal(200);
      expect(await res.json()).to.deep.equal({ text: 'hi ada' });
    });

    it("shares the gateway's classes: an Errors.* thrown by the plugin is the 400 envelope", async () => {
      const res = await fetch(`${main.url}/acme/hello`);
      expect(res.status).to.equal(400);
      const body = (await res.json()) as { error: { param: string; message: string } };
      expect(body.error.param).to.equal('who');
      expect(body.error.message).to.contain('who');
    });

    it("serves a .ts plugin with types, importing from 'gw/core' and a sibling .ts as './shout.js'", async () => {
      const res = await fetch(`${main.url}/acme/typed`);
      expect(res.status).to.equal(200);
      expect(await res.json()).to.deep.equal({ text: 'TYPED!', from: 'acme.typed' });
    });
  });

  it('a syntax error in a .ts plugin names file:line:column', async () => {
    const message = await bootFails(await gatewayFile('broken-ts.json', { preset: 'none', plugins: ['./broken.ts'] }));
    expect(message).to.contain(`${join(folder, 'broken.ts')}:2:23: Expression expected`);
  });

  it('a syntax error in a .mjs plugin names file:line:column', async () => {
    const message = await bootFails(await gatewayFile('broken-mjs.json', { preset: 'none', plugins: ['./broken.mjs'] }));
    expect(message).to.contain(`${join(folder, 'broken.mjs')}:3:8: Unexpected number`);
  });

  it('a misspelt option is named as unknown, with the known ones, not reported as the right one missing', async () => {
    const message = await bootFails(await gatewayFile('words.json', { preset: 'none', plugins: [{ use: './words.mjs', options: { wordz: 3 } }] }));
    expect(message).to.contain('wordz: is not an option of plugin "acme.words" (known: minWords, maxWords)');
  });

  describe('through createGateway({ configFile })', () => {
    it('loads the .mjs and .ts plugins and serves them', async () => {
      const file = await gatewayFile('embedded.json', { preset: 'none', plugins: ['./hello.mjs', './typed.ts'] });
      const gateway = await createGateway({ configFile: file, env: { GW_DATA_DIR: dataDir, GW_LOG_LEVEL: 'silent' } });
      try {
        const hello = await gateway.fetch(new Request('http://gw.test/acme/hello?who=bob'));
        expect(await hello.json()).to.deep.equal({ text: 'hello bob' });
        const typed = await gateway.fetch(new Request('http://gw.test/acme/typed'));
        expect(await typed.json()).to.deep.equal({ text: 'TYPED!', from: 'acme.typed' });
      } finally {
        await gateway.close();
      }
    });

    it("provides and reads typed services and request values through 'gw' and 'gw/contracts'", async () => {
      const file = await gatewayFile('services.json', { preset: 'none', allowUnauthenticated: true, plugins: ['./counter.ts'] });
      const gateway = await createGateway({ configFile: file, env: { GW_DATA_DIR: dataDir, GW_LOG_LEVEL: 'silent' } });
      try {
        const first = await gateway.fetch(new Request('http://gw.test/acme/count'));
        expect(await first.json()).to.deep.equal({ seen: 1, directory: false, transport: true });
        const second = await gateway.fetch(new Request('http://gw.test/acme/count'));
        expect(await second.json()).to.deep.include({ seen: 2 });
        expect(gateway.runtime.describe().plugins.find((p) => p.id === 'acme.counter')).to.deep.include({ provides: ['acme-counter'], requires: ['transport'] });
      } finally {
        await gateway.close();
      }
    });

    for (const [name, plugin, expected] of [
      ['a .ts syntax error', './broken.ts', 'broken.ts:2:23: Expression expected'],
      ['a .mjs syntax error', './broken.mjs', 'broken.mjs:3:8: Unexpected number'],
    ] as const) {
      it(`reports ${name} as a PluginLoadError with file:line:column`, async () => {
        const file = await gatewayFile(`embedded-${plugin.slice(2)}.json`, { preset: 'none', plugins: [plugin] });
        try {
          await createGateway({ configFile: file, env: { GW_DATA_DIR: dataDir, GW_LOG_LEVEL: 'silent' } });
          expect.fail('should have failed');
        } catch (e) {
          expect(e).to.be.instanceOf(PluginLoadError);
          expect((e as Error).message).to.contain(join(folder, expected));
        }
      });
    }
  });
});
