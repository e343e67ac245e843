/** A usage limit's current usage for one group (its value key) and the alerts it raised. */
import { useMemo, useState } from 'preact/hooks';
import { useConsole } from '../../context';
import { Field, fieldId } from '../../parts/field';
import { timeText, type ListAnswer } from '../../parts/list-page';
import { ErrorNote } from '../../parts/notes';
import { useLoad } from '../../parts/use-load';
import type { UsageLimit } from './usage-limit-form';

interface Usage {
  usage: number;
  credit_limit: number;
  remaining: number;
  period_start: string | null;
  next_usage_reset_at: string | null;
}

interface Alert {
  kind?: string;
  value_key?: string;
  usage?: number;
  created_at?: string;
}

export function UsagePanel({ policy }: { policy: UsageLimit }) {
  const { api } = useConsole();
  const id = useMemo(fieldId, []);
  const [valueKey, setValueKey] = useState('');
  const base = `/v1/policies/usage-limits/${encodeURIComponent(policy.id)}`;
  const usage = useLoad(() => api.get<Usage>(`${base}/usage`, { value: valueKey }), [base, valueKey]);
  const alerts = useLoad(() => api.get<ListAnswer<Alert>>(`${base}/alerts`, { page_size: 50 }), [base]);
  const u = usage.value;
  return (
    <section aria-labelledby="usage-title">
      <h3 id="usage-title">Current usage</h3>
      <Field id={id} label="Group value" hint="The group's value key (e.g. an API key id for group_by api_key); empty: requests without one.">
        <input id={id} value={valueKey} onChange={(e) => setValueKey(e.currentTarget.value)} />
      </Field>
      <ErrorNote error={usage.error ?? alerts.error} />
      {u && (
        <dl class="facts" aria-label="Usage">
          <dt>Used</dt><dd>{u.usage}</dd>
          <dt>Remaining</dt><dd>{u.remaining} of {u.credit_limit}</dd>
          <dt>Period</dt><dd>{u.period_start ? timeText(u.period_start) : 'since creation'} → {u.next_usage_reset_at ? timeText(u.next_usage_reset_at) : 'no reset'}</dd>
        </dl>
      )}
      <h3>Alerts</h3>
      {alerts.value && alerts.value.data.length === 0 && <p class="muted">No alerts raised.</p>}
      {alerts.value && alerts.value.data.length > 0 && (
        <table aria-label="Alerts">
          <thead><tr><th scope="col">Kind</th><th scope="col">Group</th><th scope="col">Usage</th><th scope="col">When</th></tr></thead>
          <tbody>
            {alerts.value.data.map((a, i) => (
              <tr key={i}><td>{a.kind}</td><td>{a.value_key}</td><td>{a.usage}</td><td>{timeText(a.created_at)}</td></tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
