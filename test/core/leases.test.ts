/**
 * Work leases on a real record store (the gateway's own: SQLite on the first pass of the suite,
 * PostgreSQL on the second): one holder at a time, take-over after expiry, renewal, release, one
 * run per period, and a race of many claimants with exactly one winner.
 */
import { expect } from 'chai';
import { Services, WorkLeases, type RecordStore } from '../../core/index.js';
import { startGateway, type TestGateway } from '../helpers/gateway.js';

describe('work leases (core/leases.ts)', () => {
  let gw: TestGateway;
  let store: RecordStore;
  let n = 0;
  const fresh = () => `test-lease-${++n}`;

  before(async () => {
    gw = await startGateway();
    store = gw.gateway.runtime.services.get(Services.Records);
  });
  after(async () => {
    await gw.stop();
  });

  it('is held by one instance until it expires, then taken over', async () => {
    const [a, b] = [new WorkLeases(store), new WorkLeases(store)];
    const name = fresh();
    expect(await a.claim(name, 300)).to.equal(true);
    expect(await b.claim(name, 300)).to.equal(false);
    expect((await b.holder(name))!.owner).to.equal(a.owner);
    await new Promise((r) => setTimeout(r, 350));
    expect(await b.claim(name, 300)).to.equal(true);
    expect(await a.claim(name, 300)).to.equal(false);
  });

  it('is renewed by its holder, pushing the expiry on', async () => {
    const [a, b] = [new WorkLeases(store), new WorkLeases(store)];
    const name = fresh();
    expect(await a.claim(name, 10_000)).to.equal(true);
    const first = (await a.holder(name))!.expiresAt;
    await new Promise((r) => setTimeout(r, 5));
    expect(await a.claim(name, 20_000)).to.equal(true);
    expect((await a.holder(name))!.expiresAt).to.be.greaterThan(first);
    expect(await b.claim(name, 10_000)).to.equal(false);
  });

  it('can be taken at once after its holder releases it; a release by another changes nothing', async () => {
    const [a, b] = [new WorkLeases(store), new WorkLeases(store)];
    const name = fresh();
    await a.claim(name, 60_000);
    await b.release(name);
    expect(await b.claim(name, 60_000)).to.equal(false);
    await a.release(name);
    expect(await a.holder(name)).to.equal(undefined);
    expect(await b.claim(name, 60_000)).to.equal(true);
  });

  it('gives a period to one instance, and the next period again to one', async () => {
    const instances = [new WorkLeases(store), new WorkLeases(store), new WorkLeases(store)];
    const name = fresh();
    const first = await Promise.all(instances.map((l) => l.claimPeriod(name, 300)));
    expect(first.filter(Boolean)).to.have.length(1);
    // The holder itself does not run again within the period.
    expect(await Promise.all(instances.map((l) => l.claimPeriod(name, 300)))).to.deep.equal([false, false, false]);
    await new Promise((r) => setTimeout(r, 350));
    const second = await Promise.all(instances.map((l) => l.claimPeriod(name, 300)));
    expect(second.filter(Boolean)).to.have.length(1);
  });

  it('has exactly one winner when twenty claim a free lease at once', async () => {
    const name = fresh();
    const claimants = Array.from({ length: 20 }, () => new WorkLeases(store));
    const won = await Promise.all(claimants.map((l) => l.claim(name, 60_000)));
    expect(won.filter(Boolean)).to.have.length(1);
    expect((await claimants[0]!.holder(name))!.owner).to.equal(claimants[won.indexOf(true)]!.owner);
  });
});
