/** Create or edit a rate-limit policy: requests or tokens per minute, hour, day or week. */
import { useState } from 'preact/hooks';
import { useConsole } from '../../context';
import { ChoiceInput, TextInput, jsonText, numberOf } from '../../parts/inputs';
import { FormButtons, useSubmit, type FormProps } from '../../parts/record-admin';
import { EXAMPLE_CONDITIONS, EXAMPLE_GROUP_BY, ScopeFields, scopeBody, type Policy } from './policy-fields';

export interface RateLimit extends Policy {
  type: 'requests' | 'tokens';
  unit: 'rpm' | 'rph' | 'rpd' | 'rpw';
  value: number;
}

const UNITS: [string, string][] = [['rpm', 'per minute (rpm)'], ['rph', 'per hour (rph)'], ['rpd', 'per day (rpd)'], ['rpw', 'per week (rpw)']];

export function RateLimitForm({ record, done }: FormProps<RateLimit>) {
  const { api } = useConsole();
  const [name, setName] = useState(record?.name ?? '');
  const [type, setType] = useState<string>(record?.type ?? 'requests');
  const [unit, setUnit] = useState<string>(record?.unit ?? 'rpm');
  const [value, setValue] = useState(record ? String(record.value) : '');
  const [conditions, setConditions] = useState(jsonText(record?.conditions ?? EXAMPLE_CONDITIONS));
  const [groupBy, setGroupBy] = useState(jsonText(record?.group_by ?? EXAMPLE_GROUP_BY));
  const { error, busy, submit } = useSubmit(done);

  const body = () => ({ name: name || null, type, unit, value: numberOf(value), ...scopeBody(conditions, groupBy) });
  const send = () => (record ? api.put(`/v1/policies/rate-limits/${encodeURIComponent(record.id)}`, body()) : api.post('/v1/policies/rate-limits', body()));

  return (
    <form onSubmit={submit(send)}>
      <TextInput label="Name" value={name} onInput={setName} />
      <ChoiceInput label="Counts" value={type} onInput={setType} choices={[['requests', 'requests'], ['tokens', 'tokens']]} />
      <ChoiceInput label="Per" value={unit} onInput={setUnit} choices={UNITS} />
      <TextInput label="Limit" type="number" value={value} onInput={setValue} hint="How many requests or tokens each group may use per period." />
      <ScopeFields conditions={conditions} groupBy={groupBy} setConditions={setConditions} setGroupBy={setGroupBy} />
      <FormButtons busy={busy} error={error} editing={record !== undefined} done={done} />
    </form>
  );
}
