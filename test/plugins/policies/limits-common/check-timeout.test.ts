/** plugins/policies/limits-common/check-timeout: the time-out of a limit check and the count and warning of skipped ones. */
import { expect } from 'chai';
import { createLogger } from '../../../../core/index.js';
import { CheckTimeoutError, SkippedCheckLog, withCheckTimeout } from '../../../../plugins/policies/limits-common/check-timeout.js';

describe('policies limits-common: limit check time-out', () => {
  it('withCheckTimeout rejects with CheckTimeoutError when the work never settles', async () => {
    const error = await withCheckTimeout(new Promise(() => undefined), 5).then(() => undefined, (e: unknown) => e);
    expect(error).to.be.instanceOf(CheckTimeoutError);
    expect((error as Error).message).to.equal('limit counters did not answer within 5 ms');
  });

  it('withCheckTimeout passes the work\'s value and its own failure on', async () => {
    expect(await withCheckTimeout(Promise.resolve(7), 1000)).to.equal(7);
    const failure = new Error('store down');
    expect(await withCheckTimeout(Promise.reject(failure), 1000).catch((e: unknown) => e)).to.equal(failure);
  });

  it('SkippedCheckLog counts every skip and warns once per interval with the count since the last warning', () => {
    const lines: Record<string, any>[] = [];
    const log = new SkippedCheckLog(createLogger('warn', { write: (l: string) => void lines.push(JSON.parse(l)) }), 'check skipped', 60_000);
    log.skipped(new CheckTimeoutError(200));
    log.skipped(new Error('down'));
    log.skipped(new Error('down'));
    expect(log.total).to.equal(3);
    expect(lines).to.have.length(1);
    expect(lines[0]).to.include({ msg: 'check skipped', level: 40, timedOut: true, skipped: 1, skippedTotal: 1 });
  });

  it('SkippedCheckLog with no interval warns for each skip, carrying the error of a failure', () => {
    const lines: Record<string, any>[] = [];
    const log = new SkippedCheckLog(createLogger('warn', { write: (l: string) => void lines.push(JSON.parse(l)) }), 'check skipped', 0);
    log.skipped(new Error('connection refused'));
    log.skipped(new Error('connection refused'));
    expect(lines.map((l) => l.skippedTotal)).to.deep.equal([1, 2]);
    expect(lines[0].err.message).to.equal('connection refused');
    expect(lines[0].timedOut).to.equal(false);
  });
});
