/** Which outcomes count as failures (spec §7: `failure_status_codes`, default "above 500"). */
import { expect } from 'chai';
import { Errors, type Attempt, type Outcome } from '../../../../core/index.js';
import { compilePolicy, judge } from '../../../../plugins/policies/circuit-breaker/policy.js';

const live = { signal: new AbortController().signal } as unknown as Attempt;

function answered(status: number): Outcome {
  return { status, retries: 0, response: { status, headers: {} }, ...(status >= 400 ? { error: Errors.upstream(status, 'x', 'openai') } : {}) };
}

const networkError: Outcome = { status: 502, error: Errors.badGateway('provider openai is unreachable: connection reset', 'openai'), retries: 0 };

describe('circuit-breaker: policy', () => {
  it('by default counts every status above 500, and not 500 itself', () => {
    const policy = compilePolicy({ failure_threshold: 1, cooldown_interval: 30000 });
    for (const status of [501, 502, 503, 504, 599]) expect(judge(answered(status), live, policy), String(status)).to.equal('failure');
    for (const status of [200, 400, 404, 408, 429, 500]) expect(judge(answered(status), live, policy), String(status)).to.equal('success');
  });

  it('with failure_status_codes counts exactly those (a 503 then does not count)', () => {
    const policy = compilePolicy({ failure_threshold: 1, cooldown_interval: 30000, failure_status_codes: [429, 408] });
    expect(judge(answered(429), live, policy)).to.equal('failure');
    expect(judge(answered(408), live, policy)).to.equal('failure');
    expect(judge(answered(503), live, policy)).to.equal('success');
  });

  it('counts a provider that was never reached, whatever the list says', () => {
    const policy = compilePolicy({ failure_threshold: 1, cooldown_interval: 30000, failure_status_codes: [429] });
    expect(judge(networkError, live, policy)).to.equal('failure');
    // A provider that itself answered 502 is judged by the list.
    expect(judge(answered(502), live, policy)).to.equal('success');
  });

  it('judges nothing when the client went away', () => {
    const controller = new AbortController();
    controller.abort();
    const policy = compilePolicy({ failure_threshold: 1, cooldown_interval: 30000 });
    expect(judge(answered(503), { signal: controller.signal } as unknown as Attempt, policy)).to.equal('neither');
  });
});
