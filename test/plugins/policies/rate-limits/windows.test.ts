/** The window algorithm: fixed windows aligned to the unit, in UTC. */
import { expect } from 'chai';
import { secondsUntil, windowAt } from '../../../../plugins/policies/rate-limits/windows.js';

const t = (iso: string) => Date.parse(iso);

describe('policy.rate-limits: windows', () => {
  const at = t('2025-01-08T10:20:30.500Z'); // a Wednesday

  it('aligns each unit to its UTC boundary', () => {
    expect(windowAt('rpm', at)).to.deep.equal({ start: t('2025-01-08T10:20:00Z'), end: t('2025-01-08T10:21:00Z') });
    expect(windowAt('rph', at)).to.deep.equal({ start: t('2025-01-08T10:00:00Z'), end: t('2025-01-08T11:00:00Z') });
    expect(windowAt('rpd', at)).to.deep.equal({ start: t('2025-01-08T00:00:00Z'), end: t('2025-01-09T00:00:00Z') });
    expect(windowAt('rpw', at)).to.deep.equal({ start: t('2025-01-06T00:00:00Z'), end: t('2025-01-13T00:00:00Z') });
  });

  it('starts weeks on Monday 00:00 UTC, boundaries included in the window they open', () => {
    expect(windowAt('rpw', t('2025-01-13T00:00:00Z')).start).to.equal(t('2025-01-13T00:00:00Z'));
    expect(windowAt('rpw', t('2025-01-12T23:59:59.999Z')).start).to.equal(t('2025-01-06T00:00:00Z'));
    expect(windowAt('rpw', t('1970-01-01T00:00:00Z')).start).to.equal(t('1969-12-29T00:00:00Z'));
    expect(windowAt('rpm', t('2025-01-08T10:21:00Z')).start).to.equal(t('2025-01-08T10:21:00Z'));
  });

  it('rounds the seconds until a reset up, and never below 1', () => {
    expect(secondsUntil(t('2025-01-08T10:21:00Z'), at)).to.equal(30);
    expect(secondsUntil(at + 1, at)).to.equal(1);
    expect(secondsUntil(at, at)).to.equal(1);
  });
});
