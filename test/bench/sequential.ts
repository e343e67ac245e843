/**
 * Requests one at a time, without autocannon (1 ms resolution): each target gets its own
 * keep-alive undici connection, targets alternate request by request so drift on the machine hits
 * them alike, and every request's first body chunk and end are timed with `process.hrtime`.
 * Each round asks the targets in a new random order: in a fixed order each target always follows
 * the same one, and what that one left running (its process finishing its work, caches it took)
 * falls on it alone.
 * Serves `ttfb` scenarios (is a stream held back?) and `latency` ones (µs the gateway adds).
 */
import { Client, type Dispatcher } from 'undici';
import { percentile } from './stats.js';
import type { Target } from './targets.js';

export interface Timing {
  /** Request sent to first body chunk, µs. */
  firstUs: number;
  /** Request sent to the end of the answer, µs. */
  totalUs: number;
}

export interface SequentialStats {
  target: string;
  samples: number;
  firstP50: number;
  firstP99: number;
  totalP50: number;
  totalP99: number;
}

/** Times one answer; keeps its text only to check it (status 200, a stream's `[DONE]`). */
class Timer implements Dispatcher.DispatchHandler {
  readonly #t0 = process.hrtime.bigint();
  #first = 0n;
  #status = 0;
  #text = '';

  constructor(
    private readonly t: Target,
    private readonly resolve: (timing: Timing) => void,
    private readonly reject: (error: Error) => void,
  ) {}

  // Its presence tells undici that this handler speaks the new (controller) interface.
  onRequestStart(): void {}

  onResponseStart(_c: Dispatcher.DispatchController, statusCode: number): void {
    this.#status = statusCode;
  }

  onResponseData(_c: Dispatcher.DispatchController, chunk: Buffer): void {
    if (this.#first === 0n) this.#first = process.hrtime.bigint();
    this.#text += chunk.toString('latin1');
  }

  onResponseEnd(): void {
    const end = process.hrtime.bigint();
    const ok = this.#status === 200 && (this.t.stream ? this.#text.includes('data: [DONE]') : this.#text.includes('"choices"'));
    if (!ok) return this.reject(new Error(`${this.t.label}: answered ${this.#status}: ${this.#text.slice(0, 300)}`));
    this.resolve({ firstUs: Number(this.#first - this.#t0) / 1000, totalUs: Number(end - this.#t0) / 1000 });
  }

  onResponseError(_c: Dispatcher.DispatchController, error: Error): void {
    this.reject(error);
  }
}

function timeOnce(client: Client, t: Target, path: string, body: Buffer): Promise<Timing> {
  return new Promise((resolve, reject) => {
    client.dispatch({ path, method: 'POST', headers: t.headers, body }, new Timer(t, resolve, reject));
  });
}

export function summarise(target: string, timings: readonly Timing[]): SequentialStats {
  const first = timings.map((x) => x.firstUs);
  const total = timings.map((x) => x.totalUs);
  return {
    target,
    samples: timings.length,
    firstP50: percentile(first, 50),
    firstP99: percentile(first, 99),
    totalP50: percentile(total, 50),
    totalP99: percentile(total, 99),
  };
}

/** The indices 0..n-1 in a random order (Fisher-Yates). */
export function shuffledIndices(n: number, random: () => number): number[] {
  const order = Array.from({ length: n }, (_, i) => i);
  for (let i = n - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [order[i], order[j]] = [order[j]!, order[i]!];
  }
  return order;
}

/** `n` measured requests per target after `warmup` unmeasured ones, interleaved, each round in its own order. */
export async function measureSequential(targets: readonly Target[], n: number, warmup: number, random: () => number = Math.random): Promise<SequentialStats[]> {
  const clients = targets.map((t) => new Client(t.origin, { pipelining: 1, keepAliveTimeout: 60_000 }));
  const bodies = targets.map((t) => Buffer.from(t.body));
  try {
    const samples: Timing[][] = targets.map(() => []);
    for (let i = 0; i < warmup + n; i++) {
      for (const k of shuffledIndices(targets.length, random)) {
        const timing = await timeOnce(clients[k]!, targets[k]!, targets[k]!.path, bodies[k]!);
        if (i >= warmup) samples[k]!.push(timing);
      }
    }
    return targets.map((t, k) => summarise(t.label, samples[k]!));
  } finally {
    await Promise.all(clients.map((c) => c.close()));
  }
}
