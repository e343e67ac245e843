/**
 * Unfinished stored responses outlive the process working on them when it crashes (kill -9, OOM,
 * power): without help their record would say `in_progress` forever and a client polling
 * GET /v1/responses/{id} would wait forever.
 *
 * Design: every gateway process is a worker with a random id and a lease (a row in
 * `response_workers`) that it renews every third of `leaseMs` while it runs; each record it starts
 * carries its worker id. A record is abandoned when it is unfinished and its worker holds no lease
 * any more. Every process sweeps abandoned records at start and then on each renewal, so the
 * records of a crashed process are failed by its successor or, with several instances sharing one
 * database, by any live one — never the records of a live instance, whose lease stays current.
 * A graceful stop gives up the lease, then sweeps (nothing of its own runs any more by then).
 * Instances compare leases written with each other's clocks: their clocks must agree within the lease.
 */
import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import type { Logger } from '../../../core/index.js';
import { failedResponse, type ResponseObject } from './response-object.js';
import type { ResponseStore } from './response-store.js';

/** OpenAI's Response `error` for a failure on the server's side (`server_error`). */
export const WORKER_GONE = {
  code: 'server_error',
  message: 'the gateway restarted before this response finished: the process working on it stopped',
} as const;

export class WorkerLease {
  /** Host and pid for operators; the random part tells apart gateways in one process (tests). */
  readonly id = `${hostname()}/${process.pid}/${randomBytes(6).toString('hex')}`;
  #timer: NodeJS.Timeout | undefined;
  /** The tick in progress: a slow store must not pile ticks up, and stop() waits for it. */
  #ticking: Promise<void> | undefined;

  constructor(
    private readonly store: ResponseStore,
    private readonly leaseMs: number,
    private readonly logger: Logger,
  ) {}

  /** Takes the lease and fails what dead workers left; then keeps both going on a timer. */
  async start(): Promise<void> {
    await this.store.renewLease(this.id, Date.now() + this.leaseMs);
    await this.sweep();
    this.#timer = setInterval(() => {
      this.#ticking ??= this.#tick().finally(() => (this.#ticking = undefined));
    }, Math.max(1, Math.floor(this.leaseMs / 3)));
    this.#timer.unref();
  }

  /** Fails the unfinished records of workers without a lease; answers how many. */
  async sweep(): Promise<number> {
    const now = Date.now();
    let swept = 0;
    for (const record of await this.store.abandoned(now)) {
      const response = JSON.parse(record.response) as ResponseObject;
      if (await this.store.replaceAbandoned(record, failedResponse(response, WORKER_GONE))) swept++;
    }
    await this.store.forgetExpiredLeases(now);
    if (swept > 0) this.logger.warn({ swept }, 'stored responses left unfinished by a stopped gateway process are now failed');
    return swept;
  }

  async stop(): Promise<void> {
    clearInterval(this.#timer);
    this.#timer = undefined;
    await this.#ticking;
    await this.store.releaseLease(this.id);
    await this.sweep();
  }

  async #tick(): Promise<void> {
    try {
      await this.store.renewLease(this.id, Date.now() + this.leaseMs);
      await this.sweep();
    } catch (e) {
      this.logger.warn({ err: e }, 'renewing the stored-responses lease failed; retrying on the next tick');
    }
  }
}
