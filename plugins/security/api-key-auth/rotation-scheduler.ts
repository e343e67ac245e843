/**
 * Rotates keys with a rotation policy when their `next_rotation_at` comes: a timer checks every
 * `intervalMs`; the new secrets wait sealed until an admin reads them once. In a fleet one instance
 * checks per interval (a work lease); should two ever overlap, a rotation only applies to the
 * secret it read, so one wins and the other skips.
 */
import { PeriodicWork, type Logger, type WorkLeases } from '../../../core/index.js';
import type { ApiKeyStore } from './key-store.js';

export class RotationScheduler {
  #periodic?: PeriodicWork;
  #running?: Promise<void>;
  #warned = false;

  constructor(
    private readonly keys: ApiKeyStore,
    private readonly intervalMs: number,
    private readonly logger: Logger,
    private readonly leases: WorkLeases,
  ) {}

  start(): void {
    if (this.intervalMs <= 0 || this.#periodic) return;
    this.#periodic = new PeriodicWork(this.leases, 'auth.api-key:rotation', this.intervalMs, () => this.check(),
      (e) => this.logger.error({ err: e }, 'scheduled API key rotation failed'));
    this.#periodic.start();
  }

  /** One check; concurrent calls share the one in flight. */
  check(): Promise<void> {
    this.#running ??= this.#rotateDue().finally(() => {
      this.#running = undefined;
    });
    return this.#running;
  }

  async stop(): Promise<void> {
    await this.#periodic?.stop();
    this.#periodic = undefined;
    await this.#running;
  }

  async #rotateDue(): Promise<void> {
    if (!this.keys.canHoldPendingSecrets()) {
      if (!this.#warned) this.logger.warn('scheduled API key rotation is off: it needs the security.secret-box plugin to keep new secrets');
      this.#warned = true;
      return;
    }
    try {
      const rotated = await this.keys.rotateDue();
      // Ids only: the new secrets never reach a log line.
      if (rotated.length > 0) this.logger.info({ keyIds: rotated }, 'rotated API keys on schedule');
    } catch (e) {
      this.logger.error({ err: e }, 'scheduled API key rotation failed');
    }
  }
}
