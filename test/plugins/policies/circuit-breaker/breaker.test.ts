/** The state machine of one circuit, against an in-memory store, with a fake Date for cooldowns. */
import { expect } from 'chai';
import sinon from 'sinon';
import type { Attempt, AttemptRunner, Outcome, Target } from '../../../../core/index.js';
import { Errors, GatewayError } from '../../../../core/index.js';
import { Breaker, PROBE_RECHECK_MS, type BreakerDeps } from '../../../../plugins/policies/circuit-breaker/breaker.js';
import { compilePolicy, type BreakerPolicy } from '../../../../plugins/policies/circuit-breaker/policy.js';
import { RecordingStore } from './test-store.js';

const COOLDOWN = 30_000;
const ID = 'abc123';

function target(path = 'config.targets[0]'): Target {
  const t = { provider: 'openai' } as Target;
  Object.defineProperty(t, '$path', { value: path, enumerable: false });
  return t;
}

function attempt(signal: AbortSignal = new AbortController().signal): Attempt {
  return { target: target(), signal } as unknown as Attempt;
}

const ok = (): Outcome => ({ status: 200, retries: 0, response: { status: 200, headers: {} } });
const fail = (status = 503): Outcome => {
  const error = Errors.upstream(status, 'down', 'openai');
  return { status, error, retries: 0, response: { status, headers: {} } };
};

/** A runner answering from a script of outcomes (then successes), counting its calls. */
function scripted(...outcomes: Array<Outcome | Promise<Outcome>>): sinon.SinonSpy<[Attempt], Promise<Outcome>> & AttemptRunner {
  const queue = [...outcomes];
  return sinon.spy(async (_a: Attempt) => (await queue.shift()) ?? ok());
}

describe('circuit-breaker: state machine', () => {
  let store: RecordingStore;
  let deps: BreakerDeps & { errors: unknown[] };
  let policy: BreakerPolicy;
  let clock: sinon.SinonFakeTimers;

  beforeEach(() => {
    store = new RecordingStore();
    const errors: unknown[] = [];
    deps = { store: () => store, onStoreError: (e) => void errors.push(e), errors };
    policy = compilePolicy({ failure_threshold: 3, cooldown_interval: COOLDOWN });
    clock = sinon.useFakeTimers({ now: 1_700_000_000_000, toFake: ['Date'] });
  });

  afterEach(() => clock.restore());

  async function failTimes(breaker: Breaker, n: number, status = 503): Promise<void> {
    for (let i = 0; i < n; i++) await breaker.run(scripted(fail(status)), attempt(), policy);
  }

  it('makes no store call while closed and healthy', async () => {
    const breaker = new Breaker(ID, deps);
    const run = scripted();
    for (let i = 0; i < 5; i++) expect((await breaker.run(run, attempt(), policy)).status).to.equal(200);
    expect(run.callCount).to.equal(5);
    expect(store.calls).to.deep.equal([]);
  });

  it('opens after failure_threshold failures in a row and then skips without calling the target', async () => {
    const breaker = new Breaker(ID, deps);
    const run = scripted(fail(), fail(), fail());
    for (let i = 0; i < 3; i++) expect((await breaker.run(run, attempt(), policy)).status).to.equal(503);
    expect(breaker.state(policy)).to.equal('open');
    expect(store.read(ID, 'opened')).to.equal(String(Date.now()));

    const skipped = await breaker.run(run, attempt(), policy);
    expect(run.callCount).to.equal(3);
    expect(skipped.status).to.equal(503);
    expect(skipped.response).to.equal(undefined);
    expect(skipped.error).to.be.instanceOf(GatewayError);
    expect(skipped.error!.code).to.equal('circuit_open');
    expect(skipped.error!.message).to.equal('circuit open for target config.targets[0]');
    expect(skipped.error!.headers['retry-after']).to.equal('30');
  });

  it('skips while open without touching the store', async () => {
    const breaker = new Breaker(ID, deps);
    await failTimes(breaker, 3);
    const before = store.calls.length;
    clock.tick(COOLDOWN - 1);
    const run = scripted();
    for (let i = 0; i < 10; i++) expect((await breaker.run(run, attempt(), policy)).error?.code).to.equal('circuit_open');
    expect(run.callCount).to.equal(0);
    expect(store.calls.length).to.equal(before);
  });

  it('a success resets the count of failures in a row', async () => {
    const breaker = new Breaker(ID, deps);
    await failTimes(breaker, 2);
    await breaker.run(scripted(ok()), attempt(), policy);
    expect(store.read(ID, 'failures')).to.equal(undefined);
    await failTimes(breaker, 2);
    expect(breaker.state(policy)).to.equal('closed');
    await failTimes(breaker, 1);
    expect(breaker.state(policy)).to.equal('open');
  });

  it('lets exactly one probe through after the cooldown; the others are skipped until it resolves', async () => {
    const breaker = new Breaker(ID, deps);
    await failTimes(breaker, 3);
    clock.tick(COOLDOWN);
    expect(breaker.state(policy)).to.equal('half-open');

    let answer!: (o: Outcome) => void;
    const run = scripted(new Promise<Outcome>((resolve) => (answer = resolve)));
    const probe = breaker.run(run, attempt(), policy);
    const others = await Promise.all([1, 2, 3].map(() => breaker.run(run, attempt(), policy)));
    for (const o of others) expect(o.error?.code).to.equal('circuit_open');
    expect(run.callCount).to.equal(1);

    answer(ok());
    expect((await probe).status).to.equal(200);
    expect(breaker.state(policy)).to.equal('closed');
  });

  it('probe success closes the circuit and clears the shared state', async () => {
    const breaker = new Breaker(ID, deps);
    await failTimes(breaker, 3);
    clock.tick(COOLDOWN);
    await breaker.run(scripted(ok()), attempt(), policy);
    expect(store.read(ID, 'opened')).to.equal(undefined);
    expect(store.read(ID, 'failures')).to.equal(undefined);
    const run = scripted();
    await Promise.all([1, 2, 3].map(() => breaker.run(run, attempt(), policy)));
    expect(run.callCount).to.equal(3);
    // Closed again means counting from zero: two failures do not open it.
    await failTimes(breaker, 2);
    expect(breaker.state(policy)).to.equal('closed');
  });

  it('probe failure re-opens the circuit with a new opening time', async () => {
    const breaker = new Breaker(ID, deps);
    await failTimes(breaker, 3);
    clock.tick(COOLDOWN + 500);
    const probe = await breaker.run(scripted(fail()), attempt(), policy);
    expect(probe.status).to.equal(503);
    expect(probe.error?.code).to.equal(null); // the provider's own error, not ours
    expect(breaker.state(policy)).to.equal('open');
    expect(store.read(ID, 'opened')).to.equal(String(Date.now()));

    clock.tick(COOLDOWN - 1);
    const run = scripted();
    expect((await breaker.run(run, attempt(), policy)).error?.code).to.equal('circuit_open');
    clock.tick(1);
    expect((await breaker.run(run, attempt(), policy)).status).to.equal(200);
    expect(run.callCount).to.equal(1);
  });

  it('a probe the client abandoned decides nothing: the next request probes', async () => {
    const breaker = new Breaker(ID, deps);
    await failTimes(breaker, 3);
    clock.tick(COOLDOWN);
    const aborted = new AbortController();
    aborted.abort();
    await breaker.run(scripted(fail(499)), attempt(aborted.signal), policy);
    expect(breaker.state(policy)).to.equal('half-open');
    const run = scripted(ok());
    expect((await breaker.run(run, attempt(), policy)).status).to.equal(200);
    expect(breaker.state(policy)).to.equal('closed');
  });

  it('a probe whose runner throws frees the probe and rethrows', async () => {
    const breaker = new Breaker(ID, deps);
    await failTimes(breaker, 3);
    clock.tick(COOLDOWN);
    const boom = sinon.spy(async () => {
      throw new Error('bug');
    });
    let thrown: unknown;
    await breaker.run(boom, attempt(), policy).catch((e: unknown) => (thrown = e));
    expect((thrown as Error).message).to.equal('bug');
    expect((await breaker.run(scripted(ok()), attempt(), policy)).status).to.equal(200);
  });

  it('a client that went away does not count as a failure', async () => {
    const breaker = new Breaker(ID, deps);
    const aborted = new AbortController();
    aborted.abort();
    for (let i = 0; i < 5; i++) await breaker.run(scripted(fail()), attempt(aborted.signal), policy);
    expect(breaker.state(policy)).to.equal('closed');
    expect(store.calls).to.deep.equal([]);
  });

  describe('several instances sharing one store', () => {
    it('announces opening and closing, and an instance that hears them follows without a store call', async () => {
      const heard: Array<[string, number | undefined]> = [];
      const a = new Breaker(ID, { ...deps, announce: (identity, openedAt) => void heard.push([identity, openedAt]) });
      const b = new Breaker(ID, deps);
      await failTimes(a, 3);
      expect(heard).to.deep.equal([[ID, Date.now()]]);
      const before = store.calls.length;
      b.heard(heard[0]![1]);
      const runB = scripted();
      expect((await b.run(runB, attempt(), policy)).error?.code).to.equal('circuit_open');
      expect(runB.callCount).to.equal(0);
      expect(store.calls.length).to.equal(before);

      clock.tick(COOLDOWN);
      expect((await a.run(scripted(ok()), attempt(), policy)).status).to.equal(200); // a's probe closes it
      expect(heard).to.deep.equal([[ID, Date.now() - COOLDOWN], [ID, undefined]]);
      b.heard(undefined);
      expect(b.state(policy)).to.equal('closed');
    });

    it('an older opening heard late does not replace a newer one', () => {
      const b = new Breaker(ID, deps);
      b.heard(Date.now());
      b.heard(Date.now() - 10_000);
      clock.tick(COOLDOWN - 1);
      expect(b.state(policy)).to.equal('open');
    });

    it('after a resync it reads the shared state once before its next attempt, then no more', async () => {
      const a = new Breaker(ID, deps);
      const b = new Breaker(ID, deps);
      await failTimes(a, 3);
      b.resync();
      const runB = scripted();
      expect((await b.run(runB, attempt(), policy)).error?.code).to.equal('circuit_open');
      expect(runB.callCount).to.equal(0);
      const before = store.calls.length;
      await b.run(runB, attempt(), policy);
      expect(store.calls.length).to.equal(before);
    });

    it('a resync that cannot read the store keeps the local view and reports the error', async () => {
      const b = new Breaker(ID, deps);
      b.resync();
      store.failing = true;
      expect((await b.run(scripted(ok()), attempt(), policy)).status).to.equal(200);
      expect(deps.errors).to.have.length(1);
    });

    it('an instance learns at its first failure that another opened the circuit', async () => {
      const a = new Breaker(ID, deps);
      const b = new Breaker(ID, deps);
      await failTimes(a, 3);
      const runB = scripted(fail());
      await b.run(runB, attempt(), policy);
      expect(b.state(policy)).to.equal('open');
      expect((await b.run(runB, attempt(), policy)).error?.code).to.equal('circuit_open');
      expect(runB.callCount).to.equal(1);
    });

    it('failures on different instances add up', async () => {
      const a = new Breaker(ID, deps);
      const b = new Breaker(ID, deps);
      await failTimes(a, 2);
      await failTimes(b, 1);
      expect(b.state(policy)).to.equal('open');
    });

    it('only one instance probes; the other passes once the probe closed the circuit', async () => {
      const a = new Breaker(ID, deps);
      const b = new Breaker(ID, deps);
      await failTimes(a, 2);
      await failTimes(b, 1);
      await failTimes(a, 1); // a learns
      clock.tick(COOLDOWN);

      let answer!: (o: Outcome) => void;
      const probe = a.run(scripted(new Promise<Outcome>((resolve) => (answer = resolve))), attempt(), policy);
      await new Promise((resolve) => setImmediate(resolve)); // a has claimed the probe
      expect(a.state(policy)).to.equal('half-open');
      expect(store.read(ID, `probe:${store.read(ID, 'opened')}`)).to.equal('1');
      const runB = scripted();
      expect((await b.run(runB, attempt(), policy)).error?.code).to.equal('circuit_open');
      answer(ok());
      await probe;
      // b keeps its answer for PROBE_RECHECK_MS, then reads the store and finds the circuit closed.
      expect((await b.run(runB, attempt(), policy)).error?.code).to.equal('circuit_open');
      clock.tick(PROBE_RECHECK_MS);
      expect((await b.run(runB, attempt(), policy)).status).to.equal(200);
      expect(runB.callCount).to.equal(1);
      expect(b.state(policy)).to.equal('closed');
    });

    it('an instance whose cooldown ended sees that another re-opened the circuit', async () => {
      const a = new Breaker(ID, deps);
      const b = new Breaker(ID, deps);
      await failTimes(a, 3);
      await failTimes(b, 1); // b learns the same opening time
      clock.tick(COOLDOWN);
      await a.run(scripted(fail()), attempt(), policy); // a's probe fails: re-opened now
      const runB = scripted();
      expect((await b.run(runB, attempt(), policy)).error?.code).to.equal('circuit_open');
      expect(runB.callCount).to.equal(0);
      expect(b.state(policy)).to.equal('open');
    });
  });

  describe('when the store fails', () => {
    it('never fails a request and counts on this instance alone', async () => {
      const breaker = new Breaker(ID, deps);
      store.failing = true;
      await failTimes(breaker, 3);
      expect(breaker.state(policy)).to.equal('open');
      expect(deps.errors.length).to.be.greaterThan(0);
      clock.tick(COOLDOWN);
      const run = scripted(ok());
      expect((await breaker.run(run, attempt(), policy)).status).to.equal(200);
      expect(breaker.state(policy)).to.equal('closed');
    });
  });
});
