/** Reset periods: weekly (Monday), monthly (the 1st), every N days from an anchor, or never; all UTC. */
import { expect } from 'chai';
import { defaultAnchor, periodAt, utcMidnight } from '../../../../plugins/policies/usage-limits/schedule.js';

const t = (iso: string) => Date.parse(iso);
const none = { periodic_reset: null, periodic_reset_days: null, reset_anchor: null };

describe('policy.usage-limits: reset schedule', () => {
  const at = t('2025-01-08T10:20:30Z'); // a Wednesday

  it('normalises to UTC midnight', () => {
    expect(utcMidnight(at)).to.equal(t('2025-01-08T00:00:00Z'));
    expect(utcMidnight(t('2025-01-08T00:00:00Z'))).to.equal(t('2025-01-08T00:00:00Z'));
    expect(defaultAnchor(30, at)).to.equal(t('2025-02-07T00:00:00Z'));
  });

  it('weekly: Monday to Monday', () => {
    expect(periodAt({ ...none, periodic_reset: 'weekly' }, at)).to.deep.include({ start: t('2025-01-06T00:00:00Z'), end: t('2025-01-13T00:00:00Z') });
  });

  it('monthly: the 1st to the 1st, across a year end and a leap February', () => {
    expect(periodAt({ ...none, periodic_reset: 'monthly' }, at)).to.deep.include({ start: t('2025-01-01T00:00:00Z'), end: t('2025-02-01T00:00:00Z') });
    expect(periodAt({ ...none, periodic_reset: 'monthly' }, t('2024-12-31T23:59:59Z')).end).to.equal(t('2025-01-01T00:00:00Z'));
    expect(periodAt({ ...none, periodic_reset: 'monthly' }, t('2024-02-15T00:00:00Z')).end).to.equal(t('2024-03-01T00:00:00Z'));
  });

  it('every N days from the anchor; before it, one first period ending at the anchor', () => {
    const s = { periodic_reset: null, periodic_reset_days: 3, reset_anchor: t('2025-01-10T00:00:00Z') };
    expect(periodAt(s, at)).to.deep.equal({ key: `a${t('2025-01-10T00:00:00Z')}`, start: null, end: t('2025-01-10T00:00:00Z') });
    expect(periodAt(s, t('2025-01-10T00:00:00Z'))).to.deep.include({ start: t('2025-01-10T00:00:00Z'), end: t('2025-01-13T00:00:00Z') });
    expect(periodAt(s, t('2025-01-15T12:00:00Z'))).to.deep.include({ start: t('2025-01-13T00:00:00Z'), end: t('2025-01-16T00:00:00Z') });
    // An anchor in the past only sets the phase.
    expect(periodAt({ ...s, reset_anchor: t('2024-12-01T00:00:00Z') }, at)).to.deep.include({ start: t('2025-01-06T00:00:00Z'), end: t('2025-01-09T00:00:00Z') });
  });

  it('never: one cumulative period', () => {
    expect(periodAt(none, at)).to.deep.equal({ key: 'all', start: null, end: null });
  });
});
