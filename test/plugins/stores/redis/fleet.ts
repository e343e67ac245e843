/**
 * Several real gateway instances acting as one fleet: one data folder (SQLite in WAL mode, several
 * connections on one file: the stand-in for a shared record store), one Redis under one key prefix,
 * one secret key. Instances start one after the other (the first migrates and seeds).
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { PluginEntry } from '../../../../core/index.js';
import RedisStorePlugin from '../../../../plugins/stores/redis/index.js';
import { startGateway, type TestGateway } from '../../../helpers/gateway.js';
import { deletePrefix, uniquePrefix } from './helpers.js';

export interface FleetOptions {
  redisUrl: string;
  /** Added to the default preset of every instance. */
  plugins?: PluginEntry[];
  /** Options of store.redis (the key prefix is the fleet's). */
  redis?: Record<string, unknown>;
  env?: Record<string, string>;
}

export interface Fleet {
  readonly dataDir: string;
  readonly prefix: string;
  readonly gateways: TestGateway[];
  /** Starts one more instance of the fleet. */
  add(): Promise<TestGateway>;
  stop(): Promise<void>;
}

export async function startFleet(size: number, options: FleetOptions): Promise<Fleet> {
  const dataDir = await mkdtemp(join(tmpdir(), 'gw-fleet-'));
  const prefix = uniquePrefix();
  const secretKey = randomBytes(32).toString('base64');
  const gateways: TestGateway[] = [];
  const add = async () => {
    const gw = await startGateway({
      plugins: [...(options.plugins ?? []), { use: RedisStorePlugin, options: { keyPrefix: prefix, ...options.redis } }],
      settings: { redisUrl: options.redisUrl },
      env: { GW_DATA_DIR: dataDir, GW_SECRET_KEY: secretKey, ...options.env },
    });
    gateways.push(gw);
    return gw;
  };
  try {
    for (let i = 0; i < size; i++) await add();
  } catch (e) {
    await Promise.all(gateways.map((g) => g.stop()));
    throw e;
  }
  return {
    dataDir,
    prefix,
    gateways,
    add,
    stop: async () => {
      await Promise.all(gateways.map((g) => g.stop()));
      await rm(dataDir, { recursive: true, force: true });
      await deletePrefix(options.redisUrl, prefix).catch(() => undefined);
    },
  };
}

export { call } from '../../../helpers/gateway.js';

/** Polls `check` every 20 ms until it holds; resolves with the milliseconds it took, rejects after `limitMs`. */
export async function within(limitMs: number, check: () => Promise<boolean>): Promise<number> {
  const started = performance.now();
  for (;;) {
    if (await check()) return performance.now() - started;
    if (performance.now() - started > limitMs) throw new Error(`not within ${limitMs} ms`);
    await new Promise((r) => setTimeout(r, 20));
  }
}
