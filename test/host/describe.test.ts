/**
 * `npm start -- --describe`: a real process boots the default gateway, prints its hooks with their
 * taps, its registries and its plugins, and exits 0 without listening.
 */
import { expect } from 'chai';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { GatewayDescription } from '../../core/index.js';
import { TEST_API_KEY } from '../helpers/gateway.js';
import { runMain } from '../helpers/main-process.js';

describe('npm start -- --describe', function () {
  this.timeout(30_000);
  let dataDir: string;
  const env = () => ({ PORT: '0', GW_DATA_DIR: dataDir, GW_BOOTSTRAP_API_KEY: TEST_API_KEY, GW_LOG_LEVEL: 'silent' });

  beforeEach(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'gw-describe-'));
  });
  afterEach(() => rm(dataDir, { recursive: true, force: true }));

  it('prints hooks with their taps (plugin and stage name), registries, routes and plugins, then exits 0 without listening', async () => {
    const run = await runMain(['--describe'], env());
    expect(run.code, run.stderr).to.equal(0);
    expect(run.stdout).to.not.include('listening on');
    const lines = run.stdout.split('\n');
    const onRequest = lines.findIndex((l) => /^ {2}onRequest\b/.test(l));
    const resolveConfig = lines.findIndex((l) => /^ {2}resolveConfig\b/.test(l));
    expect(onRequest).to.be.greaterThan(-1);
    expect(resolveConfig).to.be.greaterThan(onRequest);
    // auth.api-key at AUTH, after the trace id (TRACE), in run order.
    const onRequestTaps = lines.slice(onRequest + 1, resolveConfig).map((l) => l.trim().split(/\s+/));
    expect(onRequestTaps).to.deep.include(['auth.api-key', 'AUTH']);
    expect(onRequestTaps.findIndex((t) => t[1] === 'TRACE')).to.be.lessThan(onRequestTaps.findIndex((t) => t[1] === 'AUTH'));
    expect(run.stdout).to.match(/^ {2}strategies \(\d+\)\n {4}single {2}\(strategy\.single\)/m);
    expect(run.stdout).to.match(/^ {4}fallback {2}\(strategy\.fallback\)$/m);
    expect(run.stdout).to.match(/^ {4}openai {2}\(provider\.openai\)$/m);
    expect(run.stdout).to.match(/^ {4}POST {3}\/v1\/chat\/completions$/m);
    expect(run.stdout).to.match(/^ {4}GET {4}\/v1\/gateway\/plugins$/m);
    expect(run.stdout).to.match(/^ {2}store\.sqlite {2}provides records$/m);
    // auth.api-key declares the key store it provides too (the loader checks that every provided service is declared).
    expect(run.stdout).to.match(/^ {2}auth\.api-key {2}provides auth, key-store; requires records$/m);
  });

  it('--describe=json prints one JSON document on stdout, the same hooks in lifecycle order', async () => {
    const run = await runMain(['--describe=json'], env());
    expect(run.code, run.stderr).to.equal(0);
    const description = JSON.parse(run.stdout) as GatewayDescription;
    expect(description.hooks.map((h) => h.name)).to.deep.equal([
      'onRequest', 'resolveConfig', 'validateConfig', 'prepareBody', 'preRoute', 'beforeRequest', 'guardInput',
      'wrapAttempt', 'call', 'guardOutput', 'afterRequest', 'respond', 'onResponse', 'onError', 'ready', 'close',
    ]);
    expect(description.hooks[0]!.taps).to.deep.include({ plugin: 'auth.api-key', stage: 'AUTH' });
    expect(description.hooks.find((h) => h.name === 'wrapAttempt')!.taps.map((t) => t.stage))
      .to.deep.equal(['CALL', 'TIMEOUT', 'RETRY', 'BREAKER', 'AFTER_BREAKER', 'CACHE']);
    expect(description.registries.strategies.map((s) => s.name)).to.include.members(['single', 'fallback', 'loadbalance', 'conditional']);
    expect(description.registries.providers).to.deep.include({ name: 'openai', plugin: 'provider.openai' });
    expect(description.registries.routes).to.deep.include({ method: 'GET', path: '/health', protected: false });
    expect(description.plugins.find((p) => p.id === 'store.sqlite')!.provides).to.deep.equal(['records']);
  });

  it('prints a first generated key on stderr, keeping stdout for the JSON', async () => {
    const { GW_BOOTSTRAP_API_KEY: _none, ...noKey } = env();
    const run = await runMain(['--describe=json'], noKey);
    expect(run.code, run.stderr).to.equal(0);
    expect(run.stderr).to.include('generated the first API key');
    expect(() => JSON.parse(run.stdout)).to.not.throw();
  });

  it('describes the gateway of a gateway file', async () => {
    const file = join(dataDir, 'gateway.json');
    await writeFile(file, JSON.stringify({ preset: 'none', plugins: ['store.sqlite', 'auth.api-key', 'endpoints.inference', 'strategy.single', 'provider.openai'] }));
    const run = await runMain(['--describe=json', '--config', file], env());
    expect(run.code, run.stderr).to.equal(0);
    const description = JSON.parse(run.stdout) as GatewayDescription;
    expect(description.plugins.map((p) => p.id)).to.deep.equal(['store.sqlite', 'auth.api-key', 'endpoints.inference', 'strategy.single', 'provider.openai']);
    expect(description.registries.strategies).to.deep.equal([{ name: 'single', plugin: 'strategy.single' }]);
  });

  it('refuses an unknown format with exit 1 and a clear message', async () => {
    const run = await runMain(['--describe=xml'], env());
    expect(run.code).to.equal(1);
    expect(run.stderr).to.include('--describe takes text or json, not "xml"');
    expect(run.stdout).to.equal('');
  });
});
