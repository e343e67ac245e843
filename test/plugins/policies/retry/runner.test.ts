/** The retry loop alone, around a scripted runner: counts, copies, waits (fake timers), aborts. */
import { getEventListeners } from 'node:events';
import { expect } from 'chai';
import sinon from 'sinon';
import {
  Errors, JsonPayload, type Attempt, type AttemptRunner, type EndpointDef, type Outcome, type PluginApi,
  type RequestContext, type Target,
} from '../../../../core/index.js';
import { createHooks, tapOnly } from '../../../../core/hooks.js';
import RetryPlugin, { type RetryOptions } from '../../../../plugins/policies/retry/index.js';
import { withRetries, type RetryConfig, type RetryTiming } from '../../../../plugins/policies/retry/runner.js';
import { timersSetBy, type OwnTimers } from '../../../helpers/own-timers.js';

const NO_WAIT: RetryTiming = { baseDelayMs: 0, maxDelayMs: 0, maxRetryAfterMs: 30000, random: () => 0 };

function makeAttempt(signal: AbortSignal = new AbortController().signal): Attempt {
  return {
    ctx: {} as RequestContext,
    endpoint: {} as EndpointDef,
    target: { provider: 'openai', $path: 'config' } as Target,
    body: { model: 'm' },
    headers: { 'x-forwarded': 'kept' },
    stream: false,
    signal,
    retry: 0,
  };
}

function providerError(status: number, upstreamHeaders: Record<string, string> = {}): Outcome {
  const error = Errors.upstream(status, `provider said ${status}`, 'openai');
  return {
    status, error, provider: 'openai', retries: 0, upstreamHeaders,
    response: { status, headers: {}, json: JsonPayload.of(error.toEnvelope()) },
  };
}
const networkError = (): Outcome => ({ status: 502, error: Errors.badGateway('provider openai is unreachable: connection reset', 'openai'), provider: 'openai', retries: 0 });
const success = (): Outcome => ({ status: 200, provider: 'openai', retries: 0, response: { status: 200, headers: {}, json: JsonPayload.of({ ok: true }) } });

/** A runner answering the given outcomes in order (the last one repeats). */
function scripted(...outcomes: Outcome[]) {
  let i = 0;
  return sinon.spy<AttemptRunner>(async () => outcomes[Math.min(i++, outcomes.length - 1)]!);
}

describe('policy.retry runner', () => {
  afterEach(() => sinon.restore());

  describe('what is retried', () => {
    it('retries a listed status until success and reports the retries spent', async () => {
      const run = scripted(providerError(503), providerError(503), success());
      const outcome = await withRetries(run, { attempts: 3 }, NO_WAIT)(makeAttempt());
      expect(outcome.status).to.equal(200);
      expect(outcome.retries).to.equal(2);
      expect(run.callCount).to.equal(3);
    });

    it('stops after `attempts` retries and returns the last failure itself', async () => {
      const last = providerError(500);
      const run = scripted(providerError(503), providerError(429), last);
      const outcome = await withRetries(run, { attempts: 2 }, NO_WAIT)(makeAttempt());
      expect(outcome).to.equal(last);
      expect(outcome.retries).to.equal(2);
      expect(run.callCount).to.equal(3);
    });

    it('passes a status that is not listed through at once', async () => {
      const refused = providerError(400);
      const run = scripted(refused, success());
      const outcome = await withRetries(run, { attempts: 3 }, NO_WAIT)(makeAttempt());
      expect(outcome).to.equal(refused);
      expect(outcome.retries).to.equal(0);
      expect(run.callCount).to.equal(1);
    });

    it('honours a custom on_status_codes list (and no longer retries the defaults)', async () => {
      const run = scripted(providerError(409), providerError(503), success());
      const outcome = await withRetries(run, { attempts: 3, on_status_codes: [409] }, NO_WAIT)(makeAttempt());
      expect(outcome.status).to.equal(503);
      expect(run.callCount).to.equal(2);
    });

    it('treats an empty on_status_codes list as unset (the defaults apply)', async () => {
      const run = scripted(providerError(503), success());
      const outcome = await withRetries(run, { attempts: 1, on_status_codes: [] }, NO_WAIT)(makeAttempt());
      expect(outcome.status).to.equal(200);
      expect(run.callCount).to.equal(2);
    });

    it('retries a network failure (502 without a provider answer) whatever the list says', async () => {
      const run = scripted(networkError(), success());
      const outcome = await withRetries(run, { attempts: 1, on_status_codes: [429] }, NO_WAIT)(makeAttempt());
      expect(outcome.status).to.equal(200);
      expect(run.callCount).to.equal(2);
    });

    it("does not retry a provider's own 502 answer when 502 is not listed", async () => {
      const run = scripted(providerError(502), success());
      const outcome = await withRetries(run, { attempts: 1, on_status_codes: [429] }, NO_WAIT)(makeAttempt());
      expect(outcome.status).to.equal(502);
      expect(run.callCount).to.equal(1);
    });

    it('retries a request_timeout 408 only when 408 is listed', async () => {
      const timeout = (): Outcome => ({ status: 408, error: Errors.timeout(50, 'openai'), retries: 0 });
      const byDefault = scripted(timeout(), success());
      expect((await withRetries(byDefault, { attempts: 1 }, NO_WAIT)(makeAttempt())).status).to.equal(408);
      const listed = scripted(timeout(), success());
      expect((await withRetries(listed, { attempts: 1, on_status_codes: [408] }, NO_WAIT)(makeAttempt())).status).to.equal(200);
    });

    it('never retries a success, even one whose status is listed', async () => {
      const run = scripted(success());
      const outcome = await withRetries(run, { attempts: 2, on_status_codes: [200] }, NO_WAIT)(makeAttempt());
      expect(outcome.status).to.equal(200);
      expect(run.callCount).to.equal(1);
    });

    it('stops at once when the client aborted during the try, even for a listed status', async () => {
      const client = new AbortController();
      const run = sinon.spy<AttemptRunner>(async () => {
        client.abort(Errors.clientClosed());
        return { status: 408, error: Errors.timeout(10), retries: 0 };
      });
      const outcome = await withRetries(run, { attempts: 3, on_status_codes: [408, 499] }, NO_WAIT)(makeAttempt(client.signal));
      expect(outcome.status).to.equal(408);
      expect(run.callCount).to.equal(1);
    });
  });

  describe('replaying the attempt', () => {
    it('gives every try a fresh copy numbered by retry, so nothing a try changes leaks into the next', async () => {
      const seen: Attempt[] = [];
      const snapshots: string[] = [];
      const run: AttemptRunner = async (attempt) => {
        seen.push(attempt);
        snapshots.push(JSON.stringify({ body: attempt.body, headers: attempt.headers, retry: attempt.retry }));
        // What a careless inner layer might do to its attempt:
        attempt.body = { replaced: true };
        attempt.headers['x-added'] = 'by try';
        attempt.retry = 99;
        return seen.length < 3 ? providerError(503) : success();
      };
      const original = makeAttempt();
      await withRetries(run, { attempts: 3 }, NO_WAIT)(original);
      expect(snapshots).to.deep.equal([0, 1, 2].map((retry) =>
        JSON.stringify({ body: { model: 'm' }, headers: { 'x-forwarded': 'kept' }, retry })));
      expect(new Set(seen).size).to.equal(3);
      expect(seen).to.not.include(original);
      expect(original.body).to.deep.equal({ model: 'm' });
      expect(original.headers).to.deep.equal({ 'x-forwarded': 'kept' });
      expect(original.retry).to.equal(0);
    });

    it('releases a dropped failure that carried a stream before trying again', async () => {
      let finished = false;
      async function* upstream() {
        try {
          yield new TextEncoder().encode('data: {"error":{}}\n\n');
          yield new TextEncoder().encode('data: [DONE]\n\n');
        } finally {
          finished = true; // where a real stream hands its socket back
        }
      }
      const streamed: Outcome = { status: 503, retries: 0, response: { status: 503, headers: {}, stream: upstream() } };
      const run = scripted(streamed, success());
      await withRetries(run, { attempts: 1 }, NO_WAIT)(makeAttempt());
      expect(finished).to.equal(true);
    });
  });

  describe('waiting (fake timers)', () => {
    let clock: sinon.SinonFakeTimers;
    let timers: OwnTimers;
    beforeEach(() => {
      clock = sinon.useFakeTimers({ now: Date.parse('2025-01-01T00:00:00Z'), toFake: ['setTimeout', 'clearTimeout', 'Date'] });
      timers = timersSetBy(clock, 'plugins/policies/retry/sleep');
    });
    afterEach(() => timers.restore());

    /** Runs the runner and returns the call count after each of the given clock advances. */
    async function callsAfter(runner: AttemptRunner, run: sinon.SinonSpy, steps: number[], attempt = makeAttempt()) {
      const result = runner(attempt);
      const counts: number[] = [];
      await clock.tickAsync(0);
      for (const step of steps) {
        await clock.tickAsync(step);
        counts.push(run.callCount);
      }
      return { counts, outcome: await result };
    }

    it('backs off exponentially with full jitter, each wait capped by maxDelayMs', async () => {
      const run = scripted(providerError(503));
      const timing: RetryTiming = { baseDelayMs: 100, maxDelayMs: 300, maxRetryAfterMs: 30000, random: () => 0.999 };
      // Waits: 99 (of 100), 199 (of 200), 299 (of min(300, 400)), 299 (capped).
      const { counts, outcome } = await callsAfter(withRetries(run, { attempts: 4 }, timing), run, [98, 1, 198, 1, 298, 1, 298, 1]);
      expect(counts).to.deep.equal([1, 2, 2, 3, 3, 4, 4, 5]);
      expect(outcome.retries).to.equal(4);
      expect(timers.pending()).to.equal(0);
    });

    it('waits what retry-after-ms asks when use_retry_after_headers is on', async () => {
      const run = scripted(providerError(429, { 'retry-after-ms': '750' }), success());
      const retry: RetryConfig = { attempts: 1, use_retry_after_headers: true };
      const { counts, outcome } = await callsAfter(withRetries(run, retry, NO_WAIT), run, [749, 1]);
      expect(counts).to.deep.equal([1, 2]);
      expect(outcome.status).to.equal(200);
    });

    it('ignores retry-after headers when use_retry_after_headers is off (back-off instead)', async () => {
      const run = scripted(providerError(429, { 'retry-after-ms': '750' }), success());
      const { counts } = await callsAfter(withRetries(run, { attempts: 1 }, NO_WAIT), run, [0]);
      expect(counts).to.deep.equal([2]);
    });

    it('waits retry-after seconds', async () => {
      const run = scripted(providerError(503, { 'retry-after': '2' }), success());
      const retry: RetryConfig = { attempts: 1, use_retry_after_headers: true };
      const { counts } = await callsAfter(withRetries(run, retry, NO_WAIT), run, [1999, 1]);
      expect(counts).to.deep.equal([1, 2]);
    });

    it('waits until a retry-after HTTP date', async () => {
      const at = new Date(Date.now() + 3000).toUTCString();
      const run = scripted(providerError(429, { 'retry-after': at }), success());
      const retry: RetryConfig = { attempts: 1, use_retry_after_headers: true };
      const { counts } = await callsAfter(withRetries(run, retry, NO_WAIT), run, [2999, 1]);
      expect(counts).to.deep.equal([1, 2]);
    });

    it('returns the failure at once when the provider asks for more than maxRetryAfterMs', async () => {
      const tooLong = providerError(429, { 'retry-after-ms': '30001' });
      const run = scripted(tooLong, success());
      const retry: RetryConfig = { attempts: 3, use_retry_after_headers: true };
      const outcome = await withRetries(run, retry, NO_WAIT)(makeAttempt());
      expect(outcome).to.equal(tooLong);
      expect(outcome.retries).to.equal(0);
      expect(run.callCount).to.equal(1);
      expect(timers.pending()).to.equal(0);
    });

    it('waits exactly maxRetryAfterMs when that is what the provider asks', async () => {
      const run = scripted(providerError(429, { 'retry-after-ms': '30000' }), success());
      const retry: RetryConfig = { attempts: 1, use_retry_after_headers: true };
      const { counts } = await callsAfter(withRetries(run, retry, NO_WAIT), run, [29999, 1]);
      expect(counts).to.deep.equal([1, 2]);
    });

    it('stops waiting and retrying as soon as the client goes away, leaving no timer or listener', async () => {
      const client = new AbortController();
      const run = scripted(providerError(503), success());
      const timing: RetryTiming = { baseDelayMs: 10000, maxDelayMs: 10000, maxRetryAfterMs: 30000, random: () => 0.5 };
      const result = withRetries(run, { attempts: 3 }, timing)(makeAttempt(client.signal));
      await clock.tickAsync(100);
      expect(timers.pending()).to.equal(1); // the back-off
      client.abort(Errors.clientClosed());
      const outcome = await result;
      expect(outcome.status).to.equal(499);
      expect(outcome.error?.code).to.equal('client_closed');
      expect(outcome.provider).to.equal('openai');
      expect(run.callCount).to.equal(1);
      expect(timers.pending()).to.equal(0);
      expect(getEventListeners(client.signal, 'abort')).to.have.length(0);
    });

    it('leaves no listener on the client signal after a completed wait', async () => {
      const client = new AbortController();
      const run = scripted(providerError(503), success());
      const timing: RetryTiming = { baseDelayMs: 100, maxDelayMs: 100, maxRetryAfterMs: 30000, random: () => 0.5 };
      const { outcome } = await callsAfter(withRetries(run, { attempts: 1 }, timing), run, [50], makeAttempt(client.signal));
      expect(outcome.status).to.equal(200);
      expect(getEventListeners(client.signal, 'abort')).to.have.length(0);
    });
  });

  describe('the wrapAttempt tap', () => {
    function wrap(target: Partial<Target>) {
      const hooks = createHooks();
      const options: RetryOptions = { baseDelayMs: 100, maxDelayMs: 5000, maxRetryAfterMs: 30000 };
      new RetryPlugin().apply({ id: 'policy.retry', hooks: tapOnly(hooks), options } as unknown as PluginApi<RetryOptions>);
      const inner: AttemptRunner = async () => success();
      return { inner, wrapped: hooks.wrapAttempt.call(inner, target as Target) };
    }

    it('returns the runner unchanged without retry or with attempts 0 (zero cost)', () => {
      for (const target of [{}, { retry: { attempts: 0 } }]) {
        const { inner, wrapped } = wrap(target);
        expect(wrapped).to.equal(inner);
      }
    });

    it('wraps the runner when attempts > 0', () => {
      const { inner, wrapped } = wrap({ retry: { attempts: 1 } });
      expect(wrapped).to.not.equal(inner);
    });
  });
});
