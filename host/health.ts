/**
 * `GET /health` (no key): each backing store's readiness probe by name, `ok` or `down`, and the
 * overall status: 200 `ok` when every probe passes, 503 `degraded` otherwise (load balancers and
 * Kubernetes take a 503 out of rotation). Only names and verdicts: never a URL, host or error text.
 * Under GW_WORKERS the answering worker's number is added, to tell the processes apart.
 *
 * `GET /health/live` answers 200 whenever the process serves, without probing anything: a liveness
 * probe must not restart every replica because a store they share is away (restarting fixes nothing
 * there, and requests are still served from memory and fail-open paths meanwhile).
 */
import cluster from 'node:cluster';
import { JsonPayload, type HealthCheck, type Registries } from '../core/index.js';

export const HEALTH_PATH = '/health';
export const LIVENESS_PATH = '/health/live';

/** A probe that has not answered by then counts as down, so /health answers even when a store hangs. */
export const HEALTH_CHECK_TIMEOUT_MS = 2000;

export type HealthVerdict = 'ok' | 'down';

export interface HealthReport {
  status: 'ok' | 'degraded';
  checks: Record<string, HealthVerdict>;
  worker?: number;
}

const NO_STORE = Object.freeze({ 'content-type': 'application/json', 'cache-control': 'no-store' });

export function registerHealth(registries: Registries): void {
  const health = registries.health;
  registries.routes.add({
    method: 'GET',
    path: LIVENESS_PATH,
    protected: false,
    body: 'none',
    handler: async () => ({ status: 200, headers: { ...NO_STORE }, json: JsonPayload.of({ status: 'ok' }) }),
  });
  registries.routes.add({
    method: 'GET',
    path: HEALTH_PATH,
    protected: false,
    body: 'none',
    handler: async () => {
      const names = health.keys();
      const verdicts = await Promise.all(names.map((name) => probe(health.get(name)!)));
      const report: HealthReport = {
        status: verdicts.every((v) => v === 'ok') ? 'ok' : 'degraded',
        checks: Object.fromEntries(names.map((name, i) => [name, verdicts[i]!])),
      };
      if (cluster.isWorker) report.worker = cluster.worker!.id;
      return {
        status: report.status === 'ok' ? 200 : 503,
        headers: { ...NO_STORE },
        json: JsonPayload.of(report),
      };
    },
  });
}

async function probe(check: HealthCheck, timeoutMs = HEALTH_CHECK_TIMEOUT_MS): Promise<HealthVerdict> {
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), timeoutMs);
  });
  try {
    return (await Promise.race([Promise.resolve().then(check), timedOut])) ? 'ok' : 'down';
  } catch {
    return 'down';
  } finally {
    clearTimeout(timer);
  }
}
