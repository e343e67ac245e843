import { expect } from 'chai';
import { backoffDelayMs, retryAfterMs } from '../../../../plugins/policies/retry/backoff.js';

describe('policy.retry back-off and retry-after parsing', () => {
  describe('backoffDelayMs (full jitter)', () => {
    it('draws from [0, base * 2^n)', () => {
      expect(backoffDelayMs(0, 100, 5000, () => 0)).to.equal(0);
      expect(backoffDelayMs(0, 100, 5000, () => 0.999)).to.equal(99);
      expect(backoffDelayMs(1, 100, 5000, () => 0.999)).to.equal(199);
      expect(backoffDelayMs(3, 100, 5000, () => 0.5)).to.equal(400);
    });

    it('never exceeds the cap, however many retries', () => {
      expect(backoffDelayMs(6, 100, 5000, () => 0.999)).to.equal(4995);
      expect(backoffDelayMs(60, 100, 5000, () => 0.999)).to.equal(4995);
      expect(backoffDelayMs(1e4, 100, 5000, () => 0.999)).to.equal(4995);
      expect(backoffDelayMs(1e4, 0, 5000, () => 0.999)).to.equal(0);
    });

    it('waits nothing with a zero base', () => {
      expect(backoffDelayMs(5, 0, 5000, () => 0.999)).to.equal(0);
    });
  });

  describe('retryAfterMs', () => {
    const now = Date.parse('2025-01-01T00:00:00Z');

    it('reads retry-after-ms as milliseconds, rounding fractions up', () => {
      expect(retryAfterMs({ 'retry-after-ms': '20' }, now)).to.equal(20);
      expect(retryAfterMs({ 'retry-after-ms': '12.2' }, now)).to.equal(13);
    });

    it('prefers retry-after-ms over retry-after', () => {
      expect(retryAfterMs({ 'retry-after-ms': '250', 'retry-after': '1' }, now)).to.equal(250);
    });

    it('reads retry-after as seconds', () => {
      expect(retryAfterMs({ 'retry-after': '2' }, now)).to.equal(2000);
      expect(retryAfterMs({ 'retry-after': '0' }, now)).to.equal(0);
      expect(retryAfterMs({ 'retry-after': '1.5' }, now)).to.equal(1500);
    });

    it('reads retry-after as an HTTP date, a past date meaning now', () => {
      expect(retryAfterMs({ 'retry-after': new Date(now + 3000).toUTCString() }, now)).to.equal(3000);
      expect(retryAfterMs({ 'retry-after': new Date(now - 3000).toUTCString() }, now)).to.equal(0);
    });

    it('falls back (undefined) when absent or unreadable', () => {
      expect(retryAfterMs(undefined, now)).to.equal(undefined);
      expect(retryAfterMs({}, now)).to.equal(undefined);
      expect(retryAfterMs({ 'retry-after': 'soon' }, now)).to.equal(undefined);
      expect(retryAfterMs({ 'retry-after': '-5' }, now)).to.equal(undefined);
      expect(retryAfterMs({ 'retry-after-ms': 'abc' }, now)).to.equal(undefined);
    });

    it('ignores an unreadable retry-after-ms and uses retry-after', () => {
      expect(retryAfterMs({ 'retry-after-ms': 'x', 'retry-after': '3' }, now)).to.equal(3000);
    });
  });
});
