/**
 * Periodic work in a fleet: instances tick at once and exactly one runs the job per period; a
 * failing job is reported and the next period runs again. On the gateway's own record store
 * (SQLite on the first pass, PostgreSQL on the second).
 */
import { expect } from 'chai';
import { PeriodicWork, Services, WorkLeases, type RecordStore } from '../../core/index.js';
import { startGateway, type TestGateway } from '../helpers/gateway.js';

describe('periodic work on work leases (core/periodic-work.ts)', () => {
  let gw: TestGateway;
  let store: RecordStore;

  before(async () => {
    gw = await startGateway();
    store = gw.gateway.runtime.services.get(Services.Records);
  });
  after(async () => {
    await gw.stop();
  });

  const fleet = (name: string, intervalMs: number, job: (i: number) => Promise<void>, errors: unknown[] = []) =>
    Array.from({ length: 3 }, (_, i) => new PeriodicWork(new WorkLeases(store), name, intervalMs, () => job(i), (e) => errors.push(e)));

  it('runs the job on one of three instances per period', async () => {
    const runs: number[] = [];
    const instances = fleet('test-periodic-one', 60_000, async (i) => void runs.push(i));
    expect((await Promise.all(instances.map((w) => w.tick()))).filter(Boolean)).to.have.length(1);
    // Later ticks within the period, on every instance, run nothing.
    expect(await Promise.all(instances.map((w) => w.tick()))).to.deep.equal([false, false, false]);
    expect(runs).to.have.length(1);
  });

  it('runs again in the next period, once', async () => {
    const runs: number[] = [];
    const instances = fleet('test-periodic-next', 200, async (i) => void runs.push(i));
    await Promise.all(instances.map((w) => w.tick()));
    await new Promise((r) => setTimeout(r, 250));
    await Promise.all(instances.map((w) => w.tick()));
    expect(runs).to.have.length(2);
  });

  it('reports a failing job without rejecting', async () => {
    const errors: unknown[] = [];
    const [one] = fleet('test-periodic-fail', 60_000, async () => {
      throw new Error('sweep broke');
    }, errors);
    expect(await one!.tick()).to.equal(false);
    expect((errors[0] as Error).message).to.equal('sweep broke');
  });

  it('shares a tick in progress instead of overlapping it', async () => {
    let running = 0;
    let most = 0;
    const [one] = fleet('test-periodic-overlap', 60_000, async () => {
      most = Math.max(most, ++running);
      await new Promise((r) => setTimeout(r, 20));
      running--;
    });
    await Promise.all([one!.tick(), one!.tick(), one!.tick()]);
    expect(most).to.equal(1);
  });
});
