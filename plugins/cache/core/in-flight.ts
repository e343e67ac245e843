/**
 * The misses under way on this gateway process, by exact cache key (single-flight coalescing).
 * The first miss of a key leads: it calls the provider and settles its flight once its answer is
 * stored, or once it is known it will not be (failure, not a 200, cut stream, too large, guardrail
 * result, client gone). An identical miss meanwhile waits for that instead of calling the provider.
 *
 * Memory: one entry per key being fetched, removed when its leader settles; a leader that never
 * settles (its answer abandoned unread, so `onResponse` never comes) is dropped after its time
 * limit, so an entry cannot outlive the longest wait anyone would spend on it.
 */

export interface Flight {
  /** The request leading (a request never waits for itself, e.g. two targets of one fallback with one key). */
  readonly owner: object;
  /** true once the leader's answer is stored; false when it will not be. Never rejects. */
  readonly settled: Promise<boolean>;
}

/** The leader's side of a flight. */
export interface Lead {
  /** Releases the waiters and frees the key; later calls do nothing. */
  settle(stored: boolean): void;
}

export interface InFlightStats {
  /** Keys being fetched. */
  readonly flights: number;
  /** Requests waiting for one of them. */
  readonly waiters: number;
}

export class InFlight {
  readonly #flights = new Map<string, Flight>();
  #waiters = 0;

  find(key: string): Flight | undefined {
    return this.#flights.get(key);
  }

  /** Takes the key for `owner`; undefined when another request holds it already. */
  lead(key: string, owner: object, limitMs: number): Lead | undefined {
    if (this.#flights.has(key)) return undefined;
    let release!: (stored: boolean) => void;
    const flight: Flight = { owner, settled: new Promise<boolean>((resolve) => (release = resolve)) };
    this.#flights.set(key, flight);
    let done = false;
    const settle = (stored: boolean) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      // Only our own entry: after a time-out the key may already belong to a newer leader.
      if (this.#flights.get(key) === flight) this.#flights.delete(key);
      release(stored);
    };
    const timer = setTimeout(() => settle(false), limitMs);
    timer.unref();
    return { settle };
  }

  /** Counts a waiter for the stats while `wait` runs. */
  async waiting<T>(wait: Promise<T>): Promise<T> {
    this.#waiters++;
    try {
      return await wait;
    } finally {
      this.#waiters--;
    }
  }

  stats(): InFlightStats {
    return { flights: this.#flights.size, waiters: this.#waiters };
  }
}
