/** The fallback decision and loop, without the network: fake outcomes from a fake `run`. */
import { expect } from 'chai';
import { Errors, type ConfigNode, type Outcome, type RequestContext, type RunTarget } from '../../../../core/index.js';
import { fallbackStrategy } from '../../../../plugins/strategies/fallback/index.js';
import { statusCodesFor, succeeded, triggersFallback } from '../../../../plugins/strategies/fallback/triggers.js';

const ok = (status = 200): Outcome => ({ status, retries: 0 });
const providerError = (status: number): Outcome => ({ status, error: Errors.upstream(status, 'boom', 'openai'), retries: 0 });

function fakeCtx(signal = new AbortController().signal): RequestContext {
  return { request: { signal } } as unknown as RequestContext;
}

/** A run that answers from a list and records the indexes it was asked for. */
function scripted(outcomes: Outcome[]): { run: RunTarget; calls: number[] } {
  const calls: number[] = [];
  return { calls, run: (i) => { calls.push(i); return Promise.resolve(outcomes[i]!); } };
}

const node = (targets: ConfigNode[], on_status_codes?: number[]): ConfigNode => ({ strategy: { mode: 'fallback', on_status_codes }, targets });

describe('strategy.fallback decisions', () => {
  it('counts 2xx without error as success, 246 included', () => {
    for (const s of [200, 201, 246, 299]) expect(succeeded(ok(s)), String(s)).to.equal(true);
    for (const s of [199, 300, 400, 446, 503]) expect(succeeded(ok(s)), String(s)).to.equal(false);
    expect(succeeded({ status: 200, error: Errors.internal(), retries: 0 })).to.equal(false);
  });

  it('without codes, every failure triggers (client 4xx, 446, network 502, 499)', () => {
    for (const s of [400, 401, 404, 408, 429, 446, 500, 502, 503]) expect(triggersFallback(providerError(s), undefined), String(s)).to.equal(true);
    expect(triggersFallback(ok(246), undefined)).to.equal(false);
  });

  it('with codes, only those statuses trigger, and a listed success never does', () => {
    expect(triggersFallback(providerError(429), [429, 446])).to.equal(true);
    expect(triggersFallback(ok(446), [446])).to.equal(true);
    expect(triggersFallback(providerError(503), [429])).to.equal(false);
    expect(triggersFallback(ok(200), [200])).to.equal(false);
  });

  it("takes the child's own codes over the strategy's; empty lists count as unset", () => {
    expect(statusCodesFor({ on_status_codes: [429] }, [503])).to.deep.equal([429]);
    expect(statusCodesFor({}, [503])).to.deep.equal([503]);
    expect(statusCodesFor({ on_status_codes: [] }, [503])).to.deep.equal([503]);
    expect(statusCodesFor({ on_status_codes: [] }, [])).to.equal(undefined);
    expect(statusCodesFor(undefined, undefined)).to.equal(undefined);
  });
});

describe('strategy.fallback loop', () => {
  const three: ConfigNode[] = [{}, {}, {}];

  it('stops at the first success', async () => {
    const { run, calls } = scripted([providerError(503), ok(), ok()]);
    const outcome = await fallbackStrategy.route(node(three), run, fakeCtx());
    expect(outcome.status).to.equal(200);
    expect(calls).to.deep.equal([0, 1]);
  });

  it('returns the last failure when all fail', async () => {
    const last = providerError(500);
    const { run, calls } = scripted([providerError(503), providerError(429), last]);
    expect(await fallbackStrategy.route(node(three), run, fakeCtx())).to.equal(last);
    expect(calls).to.deep.equal([0, 1, 2]);
  });

  it('stops on a failure outside on_status_codes', async () => {
    const { run, calls } = scripted([providerError(429), providerError(503), ok()]);
    const outcome = await fallbackStrategy.route(node(three, [429]), run, fakeCtx());
    expect(outcome.status).to.equal(503);
    expect(calls).to.deep.equal([0, 1]);
  });

  it('stops once the client went away', async () => {
    const abort = new AbortController();
    const calls: number[] = [];
    const run: RunTarget = (i) => { calls.push(i); abort.abort(); return Promise.resolve(providerError(503)); };
    await fallbackStrategy.route(node(three), run, fakeCtx(abort.signal));
    expect(calls).to.deep.equal([0]);
  });

  it('releases a set-aside failure that carried a stream, and not the one it serves', async () => {
    const released: string[] = [];
    async function* body(name: string) {
      try {
        yield new Uint8Array([1]);
        yield new Uint8Array([2]);
      } finally {
        released.push(name);
      }
    }
    const streaming = (status: number, name: string): Outcome => ({ status, retries: 0, response: { status, headers: {}, stream: body(name) } });
    const { run } = scripted([streaming(446, 'first'), streaming(446, 'second')]);
    const outcome = await fallbackStrategy.route(node([{}, {}]), run, fakeCtx());
    await new Promise((r) => setImmediate(r));
    expect(released).to.deep.equal(['first']);
    expect(outcome.response?.stream).to.not.equal(undefined);
  });
});
