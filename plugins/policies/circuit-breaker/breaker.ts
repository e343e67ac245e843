/**
 * One target's circuit, shared by every gateway instance through the StateStore:
 *
 *   closed ──(failure_threshold failures in a row)──▶ open ──(cooldown_interval)──▶ half-open
 *     ▲                                               ▲                                │ one probe
 *     └──────────────── probe succeeds ───────────────┼────────── probe fails ─────────┘
 *
 * Keys (`cb:<identity>:…`): `failures` (shared count of failures in a row), `opened` (when the
 * circuit opened, ms since the epoch; absent while closed), `probe:<opened>` (claimed with an atomic
 * increment, so exactly one request per open period probes).
 *
 * Cost: this instance caches when it saw the circuit open. While it believes the circuit closed,
 * an attempt makes no store call unless it fails (one increment and one get, sent together) or
 * succeeds right after failures (one delete, not awaited). While open it skips without store calls
 * until the cooldown ends; then it reads `opened` once and claims the probe.
 * Consistency: an instance that opens or closes a circuit announces it on the invalidation bus
 * (`announce`), and the others take it as theirs (`heard`), so with Redis a circuit opened on one
 * instance is open on all within milliseconds. When no message can arrive (no relay, Redis away)
 * an instance learns at its own next failure or when its cached cooldown ends; after the relay
 * missed messages (`resync`) it reads the shared state once, before its next attempt.
 * A success resets the shared count only when its own instance has counted a failure since.
 * Store errors never fail a request: the breaker falls back to this instance's own view.
 */
import {
  Errors, wallNow as now,
  type Attempt, type AttemptRunner, type Outcome, type StateStore,
} from '../../../core/index.js';
import { judge, type BreakerPolicy, type Verdict } from './policy.js';

export interface BreakerDeps {
  /** The shared store, resolved at first use. */
  store(): StateStore;
  /** Called on each store failure (logging); the breaker carries on with its local view. */
  onStoreError(error: unknown): void;
  /** Tells the other instances that this one opened (at `openedAt`) or closed the circuit. */
  announce?(identity: string, openedAt: number | undefined): void;
}

export type CircuitState = 'closed' | 'open' | 'half-open';
type Admission = 'pass' | 'probe' | 'skip';

/** A failure count started this long ago starts over (bounds what an abandoned target leaves behind). */
export const COUNT_TTL_MS = 60 * 60_000;
/** How long `opened` outlives the cooldown when no request comes to probe; then the circuit is closed. */
export const OPEN_RETENTION_MS = 60 * 60_000;
/** When another instance holds the probe, skip locally this long before asking the store again. */
export const PROBE_RECHECK_MS = 1_000;

export class Breaker {
  readonly #failuresKey: string;
  readonly #openedKey: string;
  readonly #probePrefix: string;
  /** When this instance learned the circuit opened; undefined while it believes it closed. */
  #openedAt: number | undefined;
  /** This instance runs the probe of the current open period. */
  #probing = false;
  /** The store key of that probe's claim (undefined when claimed locally because the store failed). */
  #probeKey: string | undefined;
  /** Another instance holds the probe: skip without asking the store until then. */
  #recheckAt = 0;
  /** Failures this instance counted since its last success: the count when the store fails. */
  #failures = 0;
  /** Messages may have been missed: read the shared state before the next attempt. */
  #resync = false;

  constructor(readonly identity: string, private readonly deps: BreakerDeps) {
    this.#failuresKey = `cb:${identity}:failures`;
    this.#openedKey = `cb:${identity}:opened`;
    this.#probePrefix = `cb:${identity}:probe:`;
  }

  /** The state as this instance sees it. */
  state(policy: BreakerPolicy): CircuitState {
    if (this.#openedAt === undefined) return 'closed';
    return now() < this.#openedAt + policy.cooldownMs ? 'open' : 'half-open';
  }

  /** Another instance opened the circuit at `openedAt`, or closed it (undefined). */
  heard(openedAt: number | undefined): void {
    if (openedAt === undefined) {
      if (!this.#probing) this.#close();
    } else if (this.#openedAt === undefined || openedAt > this.#openedAt) {
      this.#openedAt = openedAt;
      this.#recheckAt = 0;
    }
  }

  /** Messages about this circuit may have been lost: read the shared state before the next attempt. */
  resync(): void {
    this.#resync = true;
  }

  async run(runner: AttemptRunner, attempt: Attempt, policy: BreakerPolicy): Promise<Outcome> {
    if (this.#resync) await this.#readShared();
    const admission: Admission = this.#openedAt === undefined ? 'pass' : await this.#admit(policy);
    if (admission === 'skip') return this.#skipped(attempt, policy);
    let outcome: Outcome;
    try {
      outcome = await runner(attempt);
    } catch (e) {
      // A bug below us, not the target's fault: free the probe so the next request can try.
      if (admission === 'probe') await this.#settleProbe('neither', policy);
      throw e;
    }
    const verdict = judge(outcome, attempt, policy);
    if (admission === 'probe') await this.#settleProbe(verdict, policy);
    else if (verdict === 'failure') await this.#recordFailure(policy);
    // A success while open came from a request let in before the circuit opened: only the probe closes it.
    else if (verdict === 'success' && this.#failures > 0 && this.#openedAt === undefined) this.#resetCount();
    return outcome;
  }

  async #admit(policy: BreakerPolicy): Promise<Admission> {
    const at = now();
    if (at < this.#openedAt! + policy.cooldownMs || this.#probing || at < this.#recheckAt) return 'skip';
    // The cooldown is over here: another instance may have closed or re-opened the circuit since.
    try {
      const store = this.deps.store();
      const openedAt = parseTime(await store.get(this.#openedKey));
      if (openedAt === undefined) {
        this.#close();
        return 'pass';
      }
      this.#openedAt = openedAt;
      if (at < openedAt + policy.cooldownMs || this.#probing) return 'skip';
      const key = this.#probePrefix + openedAt;
      // The claim expires after one cooldown, so a probe lost with its instance is tried again.
      if ((await store.increment(key, 1, policy.cooldownMs)) !== 1) {
        this.#recheckAt = at + PROBE_RECHECK_MS;
        return 'skip';
      }
      this.#probeKey = key;
    } catch (e) {
      this.deps.onStoreError(e);
      if (this.#probing) return 'skip';
      this.#probeKey = undefined;
    }
    this.#probing = true;
    return 'probe';
  }

  async #readShared(): Promise<void> {
    this.#resync = false;
    try {
      const openedAt = parseTime(await this.deps.store().get(this.#openedKey));
      if (openedAt === undefined) {
        if (!this.#probing) this.#close();
      } else {
        this.heard(openedAt);
      }
    } catch (e) {
      this.deps.onStoreError(e);
    }
  }

  async #settleProbe(verdict: Verdict, policy: BreakerPolicy): Promise<void> {
    this.#probing = false;
    const probeKey = this.#probeKey;
    this.#probeKey = undefined;
    if (verdict === 'success') {
      this.#close();
      this.deps.announce?.(this.identity, undefined);
      await this.#write((store) => Promise.all([store.delete(this.#openedKey), store.delete(this.#failuresKey)]));
    } else if (verdict === 'failure') {
      await this.#open(policy);
    } else if (probeKey !== undefined) {
      await this.#write((store) => store.delete(probeKey));
    }
  }

  async #recordFailure(policy: BreakerPolicy): Promise<void> {
    let count = ++this.#failures;
    let openedElsewhere: number | undefined;
    try {
      const store = this.deps.store();
      const [shared, opened] = await Promise.all([
        store.increment(this.#failuresKey, 1, COUNT_TTL_MS),
        store.get(this.#openedKey),
      ]);
      count = shared;
      openedElsewhere = parseTime(opened);
    } catch (e) {
      this.deps.onStoreError(e);
    }
    if (this.#openedAt !== undefined) return; // a concurrent failure of this instance opened it
    if (openedElsewhere !== undefined) {
      this.#openedAt = openedElsewhere;
      return;
    }
    if (count >= policy.threshold) await this.#open(policy);
  }

  /** Opens (or re-opens) the circuit now. The shared count is kept, so other instances learn at their next failure. */
  async #open(policy: BreakerPolicy): Promise<void> {
    const at = now();
    this.#openedAt = at;
    await this.#write((store) => store.set(this.#openedKey, String(at), policy.cooldownMs + OPEN_RETENTION_MS));
    // After the write: an instance that hears it and reads the store finds the same time.
    this.deps.announce?.(this.identity, at);
  }

  #resetCount(): void {
    this.#failures = 0;
    // Not awaited: an answer never waits for book-keeping (commands to one store keep their order).
    void this.#write((store) => store.delete(this.#failuresKey));
  }

  #close(): void {
    this.#openedAt = undefined;
    this.#failures = 0;
    this.#recheckAt = 0;
  }

  #skipped(attempt: Attempt, policy: BreakerPolicy): Outcome {
    const waitMs = this.#openedAt === undefined ? 0 : this.#openedAt + policy.cooldownMs - now();
    const error = Errors.circuitOpen(attempt.target.$path, Math.max(1, Math.ceil(waitMs / 1000)));
    return { status: error.status, error, retries: 0 };
  }

  async #write(write: (store: StateStore) => Promise<unknown>): Promise<void> {
    try {
      await write(this.deps.store());
    } catch (e) {
      this.deps.onStoreError(e);
    }
  }
}

function parseTime(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const time = Number(value);
  return Number.isFinite(time) ? time : undefined;
}
