/**
 * GW_WORKERS > 1: a primary process that serves nothing itself and N worker processes (node:cluster)
 * that each run the whole gateway on the one shared port.
 *
 * - The first worker boots alone (store migrations, first-key seeding) and the others start once it
 *   listens, so a generated first key is made and printed once, not by workers racing.
 * - A worker that dies is replaced, after a wait that grows while deaths repeat (restart-backoff.ts).
 * - SIGTERM/SIGINT to the primary: every worker gets SIGTERM and does the standalone server's
 *   graceful stop; the primary exits 0 once all have stopped (SIGKILL after a bounded wait).
 * - A worker that cannot start during the first boot makes the primary stop the rest and exit 1:
 *   a bad config is reported once instead of crash-looping.
 */
import cluster, { type Worker } from 'node:cluster';
import { type GatewaySettings, type Logger } from '../core/index.js';
import { flushLogger } from '../core/logger.js';
import { RestartBackoff, type BackoffOptions } from './restart-backoff.js';

/** What a worker tells the primary once its server listens. */
interface ListeningMessage {
  gw: 'listening';
  url: string;
}

/** Extra time the primary gives workers beyond their own drain time before it kills them. */
const STOP_GRACE_MS = 5000;

export const isClusterWorker = (): boolean => cluster.isWorker;

/** Worker side: tells the primary that this worker serves (it prints the ready line). */
export function reportListening(url: string): void {
  const message: ListeningMessage = { gw: 'listening', url };
  process.send?.(message);
}

/**
 * Workers share counters, breaker state and cache entries only through Redis; without it each
 * process would enforce its own limits (N times the configured rate). Records are shared through
 * the SQLite file (WAL) or PostgreSQL either way.
 */
export function checkSharedState(workers: number, settings: Pick<GatewaySettings, 'redisUrl'>): void {
  if (workers > 1 && !settings.redisUrl) {
    throw new Error(
      `GW_WORKERS=${workers} needs GW_REDIS_URL: rate-limit and usage-limit counters, circuit breakers and cache `
      + 'coalescing are per process without Redis, so each worker would apply its own limits '
      + '(records need nothing more: the workers of one machine share the SQLite file in WAL mode, or GW_DATABASE_URL)',
    );
  }
}

export interface PrimaryOptions {
  workers: number;
  /** The workers' own drain time (GW_SHUTDOWN_TIMEOUT_MS). */
  shutdownTimeoutMs: number;
  logger: Logger;
  backoff?: BackoffOptions;
}

/** Runs the primary until it is told to stop; exits the process. */
export async function runPrimary(options: PrimaryOptions): Promise<void> {
  const { logger } = options;
  const backoff = new RestartBackoff(options.backoff);
  const restarts = new Set<NodeJS.Timeout>();
  let stopping = false;
  let booted = false;

  const exit = (code: number) => {
    flushLogger(logger);
    process.exit(code);
  };

  /** Starts one worker; resolves with its URL once it listens, rejects if it dies first. */
  const fork = (): Promise<string> => {
    const worker = cluster.fork();
    logger.info({ worker: worker.id, pid: worker.process.pid }, 'worker started');
    const startedAt = Date.now();
    return new Promise<string>((resolve, reject) => {
      worker.on('message', (message: unknown) => {
        if (isListening(message)) resolve(message.url);
      });
      worker.once('exit', (code, signal) => {
        reject(new Error(`worker ${worker.id} exited (${signal ?? `code ${code}`}) before it listened`));
        onExit(worker, code, signal, Date.now() - startedAt);
      });
    });
  };

  const onExit = (worker: Worker, code: number | null, signal: string | null, livedMs: number) => {
    if (stopping) return;
    if (!booted) return; // the boot sequence reports it
    const delayMs = backoff.next(Date.now());
    logger.warn({ worker: worker.id, pid: worker.process.pid, code, signal, livedMs, restartInMs: delayMs }, 'worker died: replacing it');
    const timer = setTimeout(() => {
      restarts.delete(timer);
      if (!stopping) fork().catch(() => { /* logged by onExit, which schedules the next try */ });
    }, delayMs);
    restarts.add(timer);
  };

  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    for (const timer of restarts) clearTimeout(timer);
    const alive = Object.values(cluster.workers ?? {}).filter((w): w is Worker => w !== undefined && !w.isDead());
    logger.info({ signal, workers: alive.length }, 'shutting down: draining every worker');
    if (alive.length === 0) exit(0);
    let left = alive.length;
    const killer = setTimeout(() => {
      logger.error({ workers: left }, 'workers did not stop in time: killing them');
      for (const w of alive) if (!w.isDead()) w.process.kill('SIGKILL');
    }, options.shutdownTimeoutMs + STOP_GRACE_MS);
    for (const w of alive) {
      w.once('exit', () => {
        if (--left === 0) {
          clearTimeout(killer);
          exit(0);
        }
      });
      w.process.kill('SIGTERM');
    }
  };
  process.once('SIGTERM', () => stop('SIGTERM'));
  process.once('SIGINT', () => stop('SIGINT'));

  let url: string;
  try {
    url = await fork();
    await Promise.all(Array.from({ length: options.workers - 1 }, fork));
  } catch (e) {
    if (stopping) return;
    stopping = true;
    for (const w of Object.values(cluster.workers ?? {})) w?.process.kill('SIGTERM');
    process.stderr.write(`gw: failed to start: ${(e as Error).message}\n`);
    exit(1);
    return;
  }
  booted = true;
  if (!stopping) process.stdout.write(`gw listening on ${url} (${options.workers} workers)\n`);
}

function isListening(message: unknown): message is ListeningMessage {
  return typeof message === 'object' && message !== null && (message as ListeningMessage).gw === 'listening'
    && typeof (message as ListeningMessage).url === 'string';
}
