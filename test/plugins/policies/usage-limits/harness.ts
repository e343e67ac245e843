/** Shared set-up of the usage-limit tests: a gateway with the plugin, callers, policy helpers. */
import { Writable } from 'node:stream';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { PluginEntry } from '../../../../core/index.js';
import { createGateway, createLogger, serve } from '../../../../host/index.js';
import UsageLimitsPlugin from '../../../../plugins/policies/usage-limits/index.js';
import { startGateway, TEST_API_KEY, type TestGateway } from '../../../helpers/gateway.js';
import { api, TestPrincipalPlugin, type Caller } from '../rate-limits/harness.js';

export { api, asCaller, chat, count, eventually, leaf, settle, statusesOf, type Caller } from '../rate-limits/harness.js';

export const BASE = '/v1/policies/usage-limits';

export function startUsageGateway(options: { plugins?: PluginEntry[]; usageLimits?: Record<string, unknown> } = {}): Promise<TestGateway> {
  return startGateway({ plugins: [TestPrincipalPlugin, { use: UsageLimitsPlugin, options: options.usageLimits ?? {} }, ...(options.plugins ?? [])] });
}

/** A gateway whose log lines (warn and up) are kept in `lines`. */
export async function startLoggedGateway(lines: string[], plugins: PluginEntry[] = []): Promise<TestGateway> {
  const dataDir = await mkdtemp(join(tmpdir(), 'gw-usage-'));
  const sink = new Writable({
    write(chunk, _enc, done) {
      lines.push(...String(chunk).split('\n').filter(Boolean));
      done();
    },
  });
  const gateway = await createGateway({
    composition: { plugins: [TestPrincipalPlugin, UsageLimitsPlugin, ...plugins] },
    env: { GW_DATA_DIR: dataDir, GW_BOOTSTRAP_API_KEY: TEST_API_KEY },
    logger: createLogger('warn', sink),
  });
  const running = await serve(gateway, { port: 0, host: '127.0.0.1', shutdownTimeoutMs: 1000 });
  return {
    url: running.url, gateway, dataDir,
    stop: async () => {
      await running.stop();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}


export async function createUsageLimit(gw: TestGateway, policy: Record<string, unknown>, caller?: Caller): Promise<string> {
  const reply = await api(gw, 'POST', BASE, policy, caller);
  if (reply.status !== 200) throw new Error(`usage limit not created: ${reply.status} ${reply.text}`);
  return reply.json.id as string;
}

/** One group's usage of the current period, through the API. */
export async function usageOf(gw: TestGateway, id: string, value: string): Promise<number> {
  const reply = await api(gw, 'GET', `${BASE}/${id}/usage?value=${encodeURIComponent(value)}`);
  if (reply.status !== 200) throw new Error(`usage not read: ${reply.status} ${reply.text}`);
  return reply.json.usage as number;
}
