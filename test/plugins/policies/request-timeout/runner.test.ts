/** The per-try deadline alone, around scripted runners, on fake timers: expiry, links, no leaks. */
import { getEventListeners } from 'node:events';
import { expect } from 'chai';
import sinon from 'sinon';
import {
  Errors, GatewayError, JsonPayload, type Attempt, type AttemptRunner, type EndpointDef, type Outcome,
  type PluginApi, type RequestContext, type Target,
} from '../../../../core/index.js';
import { createHooks, tapOnly } from '../../../../core/hooks.js';
import RequestTimeoutPlugin from '../../../../plugins/policies/request-timeout/index.js';
import { withTimeout } from '../../../../plugins/policies/request-timeout/runner.js';
import { timersSetBy, type OwnTimers } from '../../../helpers/own-timers.js';

function makeAttempt(signal: AbortSignal): Attempt {
  return {
    ctx: {} as RequestContext,
    endpoint: {} as EndpointDef,
    target: { provider: 'openai', $path: 'config' } as Target,
    body: {},
    headers: {},
    stream: false,
    signal,
    retry: 0,
  };
}

const success = (): Outcome => ({ status: 200, provider: 'openai', retries: 0, response: { status: 200, headers: {}, json: JsonPayload.of({}) } });

/** Like the upstream plugin: answers after `ms`, or rethrows its signal's reason when aborted first. */
function answersAfter(ms: number, outcome: () => Outcome = success) {
  const signals: AbortSignal[] = [];
  const run: AttemptRunner = (attempt) => new Promise((resolve, reject) => {
    signals.push(attempt.signal);
    const timer = setTimeout(() => resolve(outcome()), ms);
    attempt.signal.addEventListener('abort', () => {
      clearTimeout(timer);
      reject(attempt.signal.reason);
    }, { once: true });
  });
  return { run, signals };
}

describe('policy.request-timeout runner', () => {
  let clock: sinon.SinonFakeTimers;
  let timers: OwnTimers;
  let client: AbortController;
  beforeEach(() => {
    clock = sinon.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    timers = timersSetBy(clock, 'plugins/policies/request-timeout/runner');
    client = new AbortController();
  });
  afterEach(() => timers.restore());

  const clientListeners = () => getEventListeners(client.signal, 'abort').length;

  it('passes an answer that came in time through, leaving no timer and no listener', async () => {
    const { run } = answersAfter(40);
    const result = withTimeout(run, 50)(makeAttempt(client.signal));
    await clock.tickAsync(40);
    expect((await result).status).to.equal(200);
    expect(timers.pending()).to.equal(0);
    expect(clientListeners()).to.equal(0);
  });

  it('aborts the try with the 408 error as reason when the time is up', async () => {
    const { run, signals } = answersAfter(1000);
    const result = withTimeout(run, 50)(makeAttempt(client.signal)).then(() => undefined, (e: unknown) => e);
    await clock.tickAsync(49);
    expect(signals[0]!.aborted).to.equal(false);
    expect(timers.pending()).to.equal(1); // the deadline
    await clock.tickAsync(1);
    const error = await result;
    expect(error).to.be.instanceOf(GatewayError);
    const e = error as GatewayError;
    expect(e.status).to.equal(408);
    expect(e.message).to.equal('request_timeout of 50 ms passed before the provider answered');
    expect(e.provider).to.equal('openai');
    expect(signals[0]!.reason).to.equal(e);
    expect(client.signal.aborted).to.equal(false); // only the try is cancelled, not the request
    expect(timers.pending()).to.equal(0);
    expect(clientListeners()).to.equal(0);
  });

  it('reports the time-out even when the provider call turns the abort into another failure', async () => {
    const run: AttemptRunner = (attempt) => new Promise((resolve) => {
      attempt.signal.addEventListener('abort', () => resolve({ status: 502, error: Errors.badGateway('aborted'), retries: 0 }), { once: true });
    });
    const result = withTimeout(run, 30)(makeAttempt(client.signal));
    await clock.tickAsync(30);
    const outcome = await result;
    expect(outcome.status).to.equal(408);
    expect(outcome.error?.code).to.equal('request_timeout');
    expect(outcome.provider).to.equal('openai');
  });

  it("forwards the client's abort (its own reason, not a 408) and then leaves nothing behind", async () => {
    const { run, signals } = answersAfter(1000);
    const result = withTimeout(run, 500)(makeAttempt(client.signal)).then(() => undefined, (e: unknown) => e);
    await clock.tickAsync(10);
    client.abort(Errors.clientClosed());
    const error = (await result) as GatewayError;
    expect(error.status).to.equal(499);
    expect(signals[0]!.reason).to.equal(client.signal.reason);
    await clock.tickAsync(1000); // the deadline passing afterwards changes nothing
    expect(timers.pending()).to.equal(0);
    expect(clientListeners()).to.equal(0);
  });

  it('adds nothing when the client is already gone', async () => {
    client.abort(Errors.clientClosed());
    let seen: AbortSignal | undefined;
    await withTimeout(async (attempt) => {
      seen = attempt.signal;
      return success();
    }, 50)(makeAttempt(client.signal));
    expect(seen).to.equal(client.signal);
    expect(timers.pending()).to.equal(0);
  });

  it('never cuts a stream that has started, yet the client can still cancel it', async () => {
    const stream: AsyncIterable<Uint8Array> = { [Symbol.asyncIterator]: () => ({ next: async () => ({ done: true as const, value: undefined }) }) };
    const { run, signals } = answersAfter(20, () => ({ status: 200, retries: 0, response: { status: 200, headers: {}, stream } }));
    const result = withTimeout(run, 50)(makeAttempt(client.signal));
    await clock.tickAsync(20);
    expect((await result).response?.stream).to.equal(stream);
    await clock.tickAsync(1000);
    expect(signals[0]!.aborted).to.equal(false);
    expect(timers.pending()).to.equal(0);
    client.abort(Errors.clientClosed());
    expect(signals[0]!.aborted).to.equal(true);
    expect(signals[0]!.reason).to.equal(client.signal.reason);
  });

  it('gives each try its own deadline', async () => {
    const { run, signals } = answersAfter(1000);
    const runner = withTimeout(run, 50);
    const first = runner(makeAttempt(client.signal)).catch((e: unknown) => e);
    await clock.tickAsync(50);
    expect(await first).to.be.instanceOf(GatewayError);
    const second = runner(makeAttempt(client.signal)).catch((e: unknown) => e);
    await clock.tickAsync(49);
    expect(signals[1]!.aborted).to.equal(false);
    await clock.tickAsync(1);
    expect(await second).to.be.instanceOf(GatewayError);
    expect(signals[0]).to.not.equal(signals[1]);
    expect(timers.pending()).to.equal(0);
  });

  it('gives the inner runner a copy of the attempt, leaving the original signal in place', async () => {
    const original = makeAttempt(client.signal);
    let seen: Attempt | undefined;
    await withTimeout(async (attempt) => {
      seen = attempt;
      return success();
    }, 50)(original);
    expect(seen).to.not.equal(original);
    expect(seen!.signal).to.not.equal(client.signal);
    expect(original.signal).to.equal(client.signal);
  });

  describe('the wrapAttempt tap', () => {
    function wrap(target: Partial<Target>) {
      const hooks = createHooks();
      new RequestTimeoutPlugin().apply({ id: 'policy.request-timeout', hooks: tapOnly(hooks), options: {} } as unknown as PluginApi);
      const inner: AttemptRunner = async () => success();
      return { inner, wrapped: hooks.wrapAttempt.call(inner, target as Target) };
    }

    it('returns the runner unchanged without request_timeout (zero cost)', () => {
      const { inner, wrapped } = wrap({});
      expect(wrapped).to.equal(inner);
    });

    it('wraps the runner when request_timeout is set', () => {
      const { inner, wrapped } = wrap({ request_timeout: 100 });
      expect(wrapped).to.not.equal(inner);
    });
  });
});
