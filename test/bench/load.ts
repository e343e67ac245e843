/**
 * Throughput and latency of one target under load, measured with autocannon in this process.
 */
import autocannon from 'autocannon';
import { cpuTimesUs, cpuTimesWhenIdle } from './cpu-time.js';
import { gcStatsSince, logOffset, type GcStats } from './gc-stats.js';
import type { Target } from './targets.js';

export interface LoadResult {
  target: string;
  /** Mean requests per second over the run. */
  rps: number;
  /** Latency percentiles, ms. */
  p50: number;
  p99: number;
  requests: number;
  errors: number;
  timeouts: number;
  non2xx: number;
  /** The serving process's GC work per request (`--gc` only). */
  gc?: GcStats;
  /**
   * CPU time per request served (µs): the serving process (and its workers), and the upstream
   * meanwhile, until the server is idle again; `tailUs` is the server's part after the load ended
   * (deferred work: batched log writes). Linux only.
   */
  cpu?: { serverUs: number; upstreamUs: number; tailUs: number };
}

export async function runLoad(t: Target, connections: number, durationS: number, upstreamPid: number): Promise<LoadResult> {
  const gcFrom = t.gcLog === undefined ? undefined : logOffset(t.gcLog);
  const cpuFrom = cpuTimesUs([t.pid, upstreamPid]);
  const r = await autocannon({
    url: t.origin + t.path,
    method: 'POST',
    headers: t.headers,
    body: t.body,
    connections,
    duration: durationS,
    timeout: 10,
  });
  const cpuEnd = cpuFrom && cpuTimesUs([t.pid, upstreamPid]);
  const cpuTo = cpuEnd && (await cpuTimesWhenIdle([t.pid, upstreamPid]));
  const perRequest = (us: number) => (r.requests.total > 0 ? us / r.requests.total : NaN);
  return {
    target: t.label,
    rps: r.requests.average,
    p50: r.latency.p50,
    p99: r.latency.p99,
    requests: r.requests.total,
    errors: r.errors,
    timeouts: r.timeouts,
    non2xx: r.non2xx,
    ...(gcFrom === undefined ? {} : { gc: gcStatsSince(t.gcLog!, gcFrom, r.requests.total) }),
    ...(cpuFrom && cpuEnd && cpuTo
      ? { cpu: { serverUs: perRequest(cpuTo[0]! - cpuFrom[0]!), upstreamUs: perRequest(cpuTo[1]! - cpuFrom[1]!), tailUs: perRequest(cpuTo[0]! - cpuEnd[0]!) } }
      : {}),
  };
}
