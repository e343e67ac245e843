/**
 * Composition that fails safe: the minimal preset, the refusal to serve protected routes without a
 * key-check plugin (unless allowUnauthenticated), and errors that name the plugin a gateway lacks.
 * Real gateways composed from presets and `disable` lists, a real main.js for the gateway file.
 */
import { expect } from 'chai';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createGateway, createLogger, definePlugin, JsonPayload, PluginLoadError, PRESETS, type Gateway } from '../../host/index.js';
import { startMockOpenAI, type MockOpenAI } from '../fixtures/mock-openai.js';
import { CHAT_BODY, configHeaders, directHeaders, postJson, startGateway, type TestGateway } from '../helpers/gateway.js';
import { spawnMain } from '../helpers/main-process.js';

const NO_KEY_CHECK = /serves protected routes \(.*POST \/v1\/chat\/completions.*\) without a key check: load auth\.api-key \(or another plugin that provides the "auth" service\), or set "allowUnauthenticated": true/;

describe('composition that fails safe', () => {
  let mock: MockOpenAI;
  let dataDir: string;
  before(async () => {
    mock = await startMockOpenAI();
    dataDir = await mkdtemp(join(tmpdir(), 'gw-compose-safe-'));
  });
  after(async () => {
    await mock.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  const env = () => ({ GW_DATA_DIR: dataDir, GW_LOG_LEVEL: 'silent' });

  describe('the minimal preset', () => {
    let gw: TestGateway;
    before(async () => {
      gw = await startGateway({ composition: { preset: 'minimal' } });
    });
    after(() => gw.stop());

    it('names key check, header configs, inference endpoints, upstream, openai, single strategy and response headers', () => {
      expect(PRESETS['minimal']).to.include.members([
        'auth.api-key', 'config.headers', 'endpoints.inference', 'route.upstream', 'provider.openai', 'strategy.single', 'route.response-headers',
      ]);
    });

    it('serves a chat completion with a key and header config, through the openai provider', async () => {
      const before = mock.requests.length;
      const reply = await postJson(gw.url, '/v1/chat/completions', CHAT_BODY, directHeaders(mock));
      expect(reply.status, reply.text).to.equal(200);
      expect(reply.json.object).to.equal('chat.completion');
      expect(reply.headers.get('x-gw-provider')).to.equal('openai');
      expect(mock.requests.length).to.equal(before + 1);
    });

    it('refuses a request without a key with 401', async () => {
      const headers = directHeaders(mock);
      delete headers['x-gw-api-key'];
      const reply = await postJson(gw.url, '/v1/chat/completions', CHAT_BODY, headers);
      expect(reply.status).to.equal(401);
      expect(reply.json.error.message).to.be.a('string');
    });

    it('leaves the other strategies out: a fallback config is a 400 naming the missing strategy plugin', async () => {
      const config = { strategy: { mode: 'fallback' }, targets: [{ provider: 'openai', api_key: 'sk-test', custom_host: `${mock.url}/v1` }] };
      const reply = await postJson(gw.url, '/v1/chat/completions', CHAT_BODY, configHeaders(config));
      expect(reply.status).to.equal(400);
      // The message names the plugin to load (it said "no strategy plugin ... is loaded" before plugins owned their config).
      expect(reply.json.error.message).to.equal('config.strategy.mode: "fallback" needs plugin strategy.fallback, which is not loaded');
    });
  });

  describe('a gateway without a key-check plugin', () => {
    it('refuses to boot, naming the plugin to add and allowUnauthenticated', async () => {
      const error = await createGateway({ composition: { preset: 'minimal', disable: ['auth.api-key'] }, env: env() }).catch((e: Error) => e);
      expect(error).to.be.instanceOf(PluginLoadError);
      expect((error as Error).message).to.match(NO_KEY_CHECK);
    });

    it('refuses to boot from plugins given to createGateway without allowUnauthenticated', async () => {
      const error = await createGateway({
        plugins: ['config.headers', 'endpoints.inference', 'route.upstream', 'provider.openai', 'strategy.single'], env: env(),
      }).catch((e: Error) => e);
      expect((error as Error).message).to.match(NO_KEY_CHECK);
    });

    it('boots with "allowUnauthenticated": true, warns at boot, and serves without a key', async () => {
      const lines: string[] = [];
      const logger = createLogger('warn', { write: (line: string) => void lines.push(line) });
      const gw = await startGateway({ composition: { preset: 'minimal', disable: ['auth.api-key'], allowUnauthenticated: true }, logger });
      try {
        expect(lines.join('')).to.contain('without a key check (allowUnauthenticated)');
        const headers = directHeaders(mock);
        delete headers['x-gw-api-key'];
        const reply = await postJson(gw.url, '/v1/chat/completions', CHAT_BODY, headers);
        expect(reply.status, reply.text).to.equal(200);
      } finally {
        await gw.stop();
      }
    });

    it('boots from plugins given to createGateway with the allowUnauthenticated option', async () => {
      const gateway: Gateway = await createGateway({
        plugins: ['config.headers', 'endpoints.inference', 'route.upstream', 'provider.openai', 'strategy.single'],
        allowUnauthenticated: true, env: env(),
      });
      await gateway.close();
    });

    it('boots without a key check when every route it serves is unprotected', async () => {
      const open = definePlugin({
        id: 'test.open-route',
        apply(api) {
          api.registries.routes.add({
            method: 'GET', path: '/open', protected: false, body: 'none',
            handler: async () => ({ status: 200, headers: {}, json: JsonPayload.of({ open: true }) }),
          });
        },
      });
      const gateway = await createGateway({ plugins: [open], env: env() });
      try {
        const res = await gateway.fetch(new Request('http://gw.test/open'));
        expect(await res.json()).to.deep.equal({ open: true });
      } finally {
        await gateway.close();
      }
    });

    it('a main.js process with a gateway file that leaves out auth.api-key exits with the message', async () => {
      const file = join(dataDir, 'no-auth.json');
      await writeFile(file, JSON.stringify({ preset: 'minimal', disable: ['auth.api-key'] }));
      const error = await spawnMain(['--config', file], { PORT: '0', ...env() }).then((main) => {
        main.child.kill('SIGKILL');
        return undefined;
      }, (e: Error) => e);
      expect(error?.message).to.match(NO_KEY_CHECK);
    });

    it('a main.js process with "allowUnauthenticated": true in its gateway file serves without a key', async () => {
      const file = join(dataDir, 'open.json');
      await writeFile(file, JSON.stringify({ preset: 'minimal', disable: ['auth.api-key'], allowUnauthenticated: true }));
      const main = await spawnMain(['--config', file], { PORT: '0', ...env() });
      try {
        const headers = directHeaders(mock);
        delete headers['x-gw-api-key'];
        const reply = await postJson(main.url, '/v1/chat/completions', CHAT_BODY, headers);
        expect(reply.status, reply.text).to.equal(200);
      } finally {
        main.child.kill('SIGTERM');
      }
    });

    it('a gateway file whose allowUnauthenticated is not a boolean is refused', async () => {
      const file = join(dataDir, 'bad-allow.json');
      await writeFile(file, JSON.stringify({ preset: 'minimal', allowUnauthenticated: 'yes' }));
      const error = await createGateway({ configFile: file, env: env() }).catch((e: Error) => e);
      expect((error as Error).message).to.equal(`gateway file ${file}: allowUnauthenticated must be true or false`);
    });
  });

  describe('a misspelt guardrail check parameter', () => {
    let gw: TestGateway;
    before(async () => {
      gw = await startGateway();
    });
    after(() => gw.stop());

    it('is named as the unknown key (400), not reported as the required one missing', async () => {
      const before = mock.requests.length;
      const config = { provider: 'openai', api_key: 'sk-test', custom_host: `${mock.url}/v1`, input_guardrails: [{ 'default.regexMatch': { rul: 'secret' } }] };
      const reply = await postJson(gw.url, '/v1/chat/completions', CHAT_BODY, configHeaders(config));
      expect(reply.status).to.equal(400);
      expect(reply.json.error.message).to.equal('config.input_guardrails.0.default.regexMatch.rul: is not an allowed key');
      expect(mock.requests.length).to.equal(before);
    });
  });

  describe('errors that name the missing plugin', () => {
    describe('without config.headers', () => {
      let gw: TestGateway;
      before(async () => {
        gw = await startGateway({ composition: { preset: 'minimal', disable: ['config.headers'] } });
      });
      after(() => gw.stop());

      it('an x-gw-config that was sent is named as unread, with the plugin to load', async () => {
        const reply = await postJson(gw.url, '/v1/chat/completions', CHAT_BODY, configHeaders({ provider: 'openai', api_key: 'sk-test' }));
        expect(reply.status).to.equal(500);
        expect(reply.json.error).to.include({ message: 'x-gw-config was sent but no plugin reads it: load config.headers', code: 'plugin_not_loaded' });
      });

      it('an x-gw-provider that was sent is named as unread, and the provider key is not echoed', async () => {
        const reply = await postJson(gw.url, '/v1/chat/completions', CHAT_BODY, directHeaders(mock));
        expect(reply.status).to.equal(500);
        expect(reply.json.error.message).to.equal('x-gw-provider was sent but no plugin reads it: load config.headers');
        expect(reply.text).to.not.contain('sk-test');
      });

      it('without any config header, asks for one (400) as before', async () => {
        const reply = await postJson(gw.url, '/v1/chat/completions', CHAT_BODY, { 'content-type': 'application/json', 'x-gw-api-key': directHeaders(mock)['x-gw-api-key']! });
        expect(reply.status).to.equal(400);
        expect(reply.json.error.message).to.contain('no config: send x-gw-config');
      });
    });

    describe('without route.upstream', () => {
      let gw: TestGateway;
      before(async () => {
        gw = await startGateway({ composition: { preset: 'minimal', disable: ['route.upstream'] } });
      });
      after(() => gw.stop());

      it('a loaded provider is not called "unknown": the answer names route.upstream, and nothing is sent', async () => {
        const before = mock.requests.length;
        const reply = await postJson(gw.url, '/v1/chat/completions', CHAT_BODY, directHeaders(mock));
        expect(reply.status).to.equal(500);
        expect(reply.json.error).to.include({ message: 'provider openai is loaded but nothing calls providers: load route.upstream', code: 'plugin_not_loaded' });
        expect(mock.requests.length).to.equal(before);
      });

      it('a provider that is not loaded is still a 400 unknown provider', async () => {
        const reply = await postJson(gw.url, '/v1/chat/completions', CHAT_BODY, directHeaders(mock, { 'x-gw-provider': 'nowhere' }));
        expect(reply.status).to.equal(400);
        expect(reply.json.error.message).to.contain('unknown provider "nowhere"');
      });
    });
  });
});
