/** The kernel's attempt: a lazily made signal that a plugin's spread copy still carries. */
import { expect } from 'chai';
import { RequestAttempt } from '../../core/attempt.js';
import type { RequestContext, Target } from '../../core/index.js';

function context(): { ctx: RequestContext; reads: () => number } {
  let reads = 0;
  const controller = new AbortController();
  const request = {
    get signal() {
      reads++;
      return controller.signal;
    },
  };
  const ctx = { request, endpoint: { id: 'chatComplete' }, body: { model: 'm' }, stream: false } as unknown as RequestContext;
  return { ctx, reads: () => reads };
}

describe('RequestAttempt', () => {
  const target = { provider: 'openai' } as unknown as Target;

  it('takes the request\'s fields and reads the request\'s signal only when asked', () => {
    const { ctx, reads } = context();
    const attempt = new RequestAttempt(ctx, target);
    expect(attempt).to.include({ ctx, target, endpoint: ctx.endpoint, body: ctx.body, stream: false, retry: 0 });
    expect(attempt.headers).to.deep.equal({});
    expect(reads()).to.equal(0);
    expect(attempt.signal).to.be.instanceOf(AbortSignal);
    expect(reads()).to.equal(1);
  });

  it('is copied whole by a spread (retries, time-outs), signal included', () => {
    const { ctx } = context();
    const attempt = new RequestAttempt(ctx, target);
    const copy = { ...attempt, retry: 1 };
    expect(copy.signal).to.equal(attempt.signal);
    expect(copy).to.include({ ctx, target, retry: 1 });
    const own = new AbortController().signal;
    expect({ ...attempt, signal: own }.signal).to.equal(own);
  });

  it('takes a signal a plugin sets, as a plain value from then on', () => {
    const { ctx, reads } = context();
    const attempt = new RequestAttempt(ctx, target);
    const own = new AbortController().signal;
    attempt.signal = own;
    expect(attempt.signal).to.equal(own);
    expect({ ...attempt }.signal).to.equal(own);
    expect(reads()).to.equal(0);
  });
});
