/** Redis test helpers: the shared Redis (GW_REDIS_URL), unique key prefixes, a private redis-server. */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:net';
import { Redis } from 'ioredis';

export const sharedRedisUrl = (): string | undefined => process.env['GW_REDIS_URL'] || undefined;

/** A prefix no other run uses, so tests never touch anyone's keys. */
export const uniquePrefix = () => `gw-test:${randomUUID()}:`;

/** Deletes every key under the prefix. */
export async function deletePrefix(url: string, prefix: string): Promise<void> {
  const client = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 1 });
  client.on('error', () => undefined);
  try {
    await client.connect();
    const keys = await scanKeys(client, prefix);
    if (keys.length > 0) await client.del(...keys);
  } finally {
    client.disconnect();
  }
}

export async function scanKeys(client: Redis, prefix: string): Promise<string[]> {
  const keys: string[] = [];
  let cursor = '0';
  do {
    const [next, batch] = await client.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 1000);
    cursor = next;
    keys.push(...batch);
  } while (cursor !== '0');
  return keys;
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

export const hasRedisServer = (): boolean => spawnSync('redis-server', ['--version'], { stdio: 'ignore' }).status === 0;

export interface OwnRedis {
  url: string;
  port: number;
  /** SIGKILL: the way a crashed Redis goes away. */
  kill(): Promise<void>;
  /** SIGSTOP / SIGCONT: a Redis that keeps its connections open but answers nothing. */
  pause(): void;
  resume(): void;
}

/** A private redis-server (no persistence) on `port`, resolved once it accepts connections. */
export async function startRedisServer(port: number): Promise<OwnRedis> {
  const proc: ChildProcess = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: 'ignore' });
  const url = `redis://127.0.0.1:${port}`;
  const probe = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
  probe.on('error', () => undefined); // refused until the server listens: expected
  try {
    for (let i = 0; ; i++) {
      try {
        await probe.connect();
        await probe.ping();
        break;
      } catch (e) {
        if (i > 100 || proc.exitCode !== null) throw e;
        await new Promise((r) => setTimeout(r, 20));
      }
    }
  } finally {
    probe.disconnect();
  }
  return {
    url,
    port,
    kill: () => new Promise<void>((resolve) => {
      if (proc.exitCode !== null || proc.signalCode !== null) return resolve();
      proc.once('exit', () => resolve());
      proc.kill('SIGCONT');
      proc.kill('SIGKILL');
    }),
    pause: () => void proc.kill('SIGSTOP'),
    resume: () => void proc.kill('SIGCONT'),
  };
}
