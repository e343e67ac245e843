/**
 * Limits: rate-limit policies (/v1/policies/rate-limits) and usage limits, budgets on cost or
 * tokens (/v1/policies/usage-limits). Deleting a policy archives it: no longer enforced.
 */
import { useConsole } from '../../context';
import { RecordAdmin } from '../../parts/record-admin';
import { can } from '../../session';
import { conditionsText, type Policy } from './policy-fields';
import { RateLimitForm, type RateLimit } from './rate-limit-form';
import { UsageLimitForm, type UsageLimit } from './usage-limit-form';

const ARCHIVED = 'It is archived: no longer enforced.';

export function Limits() {
  const { me } = useConsole();
  const rights = (family: string) => ({ create: can(me, `${family}.create`), update: can(me, `${family}.update`), delete: can(me, `${family}.delete`) });
  const common = [
    { label: 'Name', value: (p: Policy) => p.name ?? '' },
    { label: 'Conditions', value: (p: Policy) => conditionsText(p.conditions) },
    { label: 'Group by', value: (p: Policy) => p.group_by.map((g) => g.key).join(', ') },
  ];
  return (
    <section aria-labelledby="limits-title">
      <h1 id="limits-title">Limits</h1>
      {can(me, 'rate_limits.list') && (
        <section aria-labelledby="rate-limits-title">
          <h2 id="rate-limits-title">Rate limits</h2>
          <RecordAdmin<RateLimit>
            noun="rate limit" path="/v1/policies/rate-limits" idOf={(p) => p.id} nameOf={(p) => p.name ?? p.id}
            form={RateLimitForm} can={rights('rate_limits')} deleteNote={ARCHIVED}
            columns={[...common, { label: 'Limit', value: (p) => `${p.value} ${p.type} / ${p.unit}` }]}
          />
        </section>
      )}
      {can(me, 'usage_limits.list') && (
        <section aria-labelledby="usage-limits-title">
          <h2 id="usage-limits-title">Usage limits</h2>
          <RecordAdmin<UsageLimit>
            noun="usage limit" path="/v1/policies/usage-limits" idOf={(p) => p.id} nameOf={(p) => p.name ?? p.id}
            form={UsageLimitForm} can={rights('usage_limits')} deleteNote={ARCHIVED}
            columns={[
              ...common,
              { label: 'Limit', value: (p) => `${p.credit_limit} ${p.type === 'cost' ? 'USD' : 'tokens'}` },
              { label: 'Resets', value: (p) => p.periodic_reset ?? (p.periodic_reset_days ? `every ${p.periodic_reset_days} days` : 'never') },
            ]}
          />
        </section>
      )}
    </section>
  );
}
