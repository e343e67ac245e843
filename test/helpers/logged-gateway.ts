/**
 * A real gateway on a loopback port, like startGateway, whose log lines are kept for the test to
 * read (JSON objects, in order).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLogger } from '../../core/index.js';
import { createGateway, serve, type PluginEntry } from '../../host/index.js';
import { TEST_API_KEY, type TestGateway } from './gateway.js';

export interface LoggedGateway extends TestGateway {
  lines: Record<string, any>[];
}

export async function startLoggedGateway(plugins: PluginEntry[], env: Record<string, string> = {}): Promise<LoggedGateway> {
  const dataDir = await mkdtemp(join(tmpdir(), 'gw-test-'));
  const lines: Record<string, any>[] = [];
  const gateway = await createGateway({
    composition: { plugins },
    env: { GW_DATA_DIR: dataDir, GW_BOOTSTRAP_API_KEY: TEST_API_KEY, ...env },
    logger: createLogger('warn', { write: (line: string) => void lines.push(JSON.parse(line)) }),
  });
  const running = await serve(gateway, { port: 0, host: '127.0.0.1', shutdownTimeoutMs: 2000 });
  return {
    url: running.url,
    gateway,
    dataDir,
    lines,
    stop: async () => {
      await running.stop();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/** The value of one series of GET /metrics (0 when absent). */
export async function metricValue(url: string, series: string): Promise<number> {
  const text = await (await fetch(url + '/metrics')).text();
  const line = text.split('\n').find((l) => l.startsWith(series + ' '));
  return line ? Number(line.slice(series.length + 1)) : 0;
}
