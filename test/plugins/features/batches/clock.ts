/** A clock the test moves by hand, and the batches plugin built with it (expiry without waiting). */
import BatchesPlugin from '../../../../plugins/features/batches/index.js';

export const HOUR = 3600 * 1000;

export class ManualClock {
  t = Date.now();
  now(): number {
    return this.t;
  }
}

export function batchesWith(clock: ManualClock): typeof BatchesPlugin {
  return class FakeClockBatches extends BatchesPlugin {
    constructor() {
      super(clock);
    }
  };
}
