/**
 * Booting the default preset imports only what boot needs: libraries that serve some requests, or
 * some settings, are imported on first use (core/lazy.ts). A real process boots the whole default
 * gateway (`--describe=json`: every plugin applied, then exit) under a module trace.
 */
import { expect } from 'chai';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { modulesLoaded } from '../helpers/module-trace/boot.js';

/** Libraries the default preset must not import at boot without GW_DATABASE_URL and GW_REDIS_URL. */
const NOT_AT_BOOT = [
  'pg', 'ioredis', // their URLs are not set
  'undici', // the HTTP client of provider calls: first call, or in the background once listening
  'ws', 'ajv', 'jose', 'prom-client', '@opentelemetry/api', 'busboy', 'scim2-parse-filter', 'openid-client',
  '@smithy/signature-v4', '@smithy/eventstream-codec', '@aws-crypto/sha256-js',
  'typescript', // only for plugin files written in TypeScript
];

function packagesIn(trace: string): Set<string> {
  const names = new Set<string>();
  for (const m of trace.matchAll(/\/node_modules\/((?:@[^/]+\/)?[^/]+)\//g)) names.add(m[1]!);
  return names;
}

/** The packages main.js loaded with `args`; `whileListening` runs once it listens, then it is stopped. */
async function moduleTrace(dataDir: string, args: string[], whileListening?: () => Promise<void>): Promise<Set<string>> {
  return packagesIn((await modulesLoaded({ dataDir, args, whileListening })).join('\n'));
}

describe('lazy imports at boot', function () {
  this.timeout(60_000);
  let dataDir: string;
  let loaded: Set<string>;

  before(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'gw-lazy-imports-'));
    loaded = await moduleTrace(dataDir, ['--describe=json']);
  });
  after(() => rm(dataDir, { recursive: true, force: true }));

  it('the trace sees ES modules and CommonJS files alike (the check below cannot pass for want of seeing)', () => {
    expect(loaded).to.include('mustache'); // ES modules (mustache.mjs)
    expect(loaded).to.include('better-sqlite3'); // CommonJS, the record store of this boot
  });

  it('the default preset without database and Redis URLs imports none of the libraries loaded on first use', () => {
    expect(NOT_AT_BOOT.filter((name) => loaded.has(name))).to.deep.equal([]);
  });

  it('reads TypeBox and tsyringe from their one-file bundles (core/vendor, made by npm run build), not from their packages\' hundreds of files', () => {
    expect(['@sinclair/typebox', 'tsyringe', 'reflect-metadata'].filter((name) => loaded.has(name))).to.deep.equal([]);
  });

  it('a listening gateway imports the HTTP client of provider calls in the background soon after', async () => {
    const served = await moduleTrace(dataDir, [], () => new Promise((r) => setTimeout(r, 1500)));
    expect(served).to.include('undici');
    expect(served).to.not.include('ioredis');
  });
});
