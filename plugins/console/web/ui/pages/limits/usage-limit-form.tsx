/** Create or edit a usage limit (a budget on cost or tokens); on edit, its current usage and alerts. */
import { useState } from 'preact/hooks';
import { useConsole } from '../../context';
import { ChoiceInput, TextInput, jsonText, numberOf } from '../../parts/inputs';
import { FormButtons, useSubmit, type FormProps } from '../../parts/record-admin';
import { EXAMPLE_CONDITIONS, EXAMPLE_GROUP_BY, ScopeFields, scopeBody, type Policy } from './policy-fields';
import { UsagePanel } from './usage-panel';

export interface UsageLimit extends Policy {
  type: 'cost' | 'tokens';
  credit_limit: number;
  alert_threshold: number | null;
  periodic_reset: 'weekly' | 'monthly' | null;
  periodic_reset_days: number | null;
}

export function UsageLimitForm({ record, done }: FormProps<UsageLimit>) {
  const { api } = useConsole();
  const [name, setName] = useState(record?.name ?? '');
  const [type, setType] = useState<string>(record?.type ?? 'cost');
  const [limit, setLimit] = useState(record ? String(record.credit_limit) : '');
  const [threshold, setThreshold] = useState(record?.alert_threshold == null ? '' : String(record.alert_threshold));
  const [reset, setReset] = useState<string>(record?.periodic_reset ?? '');
  const [conditions, setConditions] = useState(jsonText(record?.conditions ?? EXAMPLE_CONDITIONS));
  const [groupBy, setGroupBy] = useState(jsonText(record?.group_by ?? EXAMPLE_GROUP_BY));
  const { error, busy, submit } = useSubmit(done);

  const body = () => ({
    name: name || null,
    type: record ? undefined : type,
    credit_limit: numberOf(limit),
    alert_threshold: numberOf(threshold) ?? null,
    // A days schedule is set through the API; the form leaves it alone unless a weekly or monthly reset is picked.
    periodic_reset: reset === '' && record?.periodic_reset_days ? undefined : reset || null,
    ...scopeBody(conditions, groupBy),
  });
  const send = () => (record ? api.put(`/v1/policies/usage-limits/${encodeURIComponent(record.id)}`, body()) : api.post('/v1/policies/usage-limits', body()));

  return (
    <>
      <form onSubmit={submit(send)}>
        <TextInput label="Name" value={name} onInput={setName} />
        {!record && <ChoiceInput label="Budget on" value={type} onInput={setType} choices={[['cost', 'cost (USD)'], ['tokens', 'tokens']]} />}
        <TextInput label="Credit limit" type="number" value={limit} onInput={setLimit} hint={`In ${(record?.type ?? type) === 'cost' ? 'USD' : 'tokens'}; requests are refused once a group has used it.`} />
        <TextInput label="Alert threshold" type="number" value={threshold} onInput={setThreshold} hint="An alert is raised when a group's usage reaches it; empty: none." />
        <ChoiceInput label="Periodic reset" value={reset} onInput={setReset} choices={[['', 'none'], ['weekly', 'weekly'], ['monthly', 'monthly']]} />
        <ScopeFields conditions={conditions} groupBy={groupBy} setConditions={setConditions} setGroupBy={setGroupBy} />
        <FormButtons busy={busy} error={error} editing={record !== undefined} done={done} />
      </form>
      {record && <UsagePanel policy={record} />}
    </>
  );
}
