/**
 * The log filters: one labelled control per /v1/logs query parameter, kept in the URL's fragment
 * under the same names (so a filtered view can be linked), applied on submit.
 */
import { useEffect, useMemo, useState } from 'preact/hooks';
import { Field, fieldId } from '../../parts/field';
import { fromLocalInput, RANGE_CHOICES, toLocalInput } from '../../parts/time-range';

/** Text filters: the fragment's (and the gateway's) parameter, its label and a hint. */
export const TEXT_FILTERS: readonly { name: string; label: string; hint?: string }[] = [
  { name: 'status_code', label: 'Status', hint: 'HTTP codes, comma-separated: 200,429' },
  { name: 'provider', label: 'Provider' },
  { name: 'model', label: 'Model' },
  { name: 'api_key_id', label: 'API key id' },
  { name: 'workspace_id', label: 'Workspace', hint: 'id or slug' },
  { name: 'metadata', label: 'Metadata', hint: 'JSON: {"user":"alice"}' },
  { name: 'trace_id', label: 'Trace id' },
];

/** Fragment parameters of the page other than the filters above. */
export const RANGE_PARAMS = ['range', 'from', 'to'] as const;

type Values = Record<string, string>;

function valuesOf(params: URLSearchParams): Values {
  const values: Values = {};
  for (const f of TEXT_FILTERS) values[f.name] = params.get(f.name) ?? '';
  values['range'] = params.get('range') ?? '';
  values['from'] = toLocalInput(params.get('from'));
  values['to'] = toLocalInput(params.get('to'));
  return values;
}

export function LogFilters(props: { params: URLSearchParams; onApply(params: Record<string, string>): void }) {
  const key = props.params.toString();
  const [values, setValues] = useState<Values>(() => valuesOf(props.params));
  useEffect(() => setValues(valuesOf(props.params)), [key]);
  const ids = useMemo(() => Object.fromEntries([...TEXT_FILTERS.map((f) => f.name), ...RANGE_PARAMS].map((n) => [n, fieldId()])), []);
  const set = (name: string) => (e: Event) => setValues({ ...values, [name]: (e.currentTarget as HTMLInputElement).value });

  const apply = (e: Event) => {
    e.preventDefault();
    const out: Record<string, string> = {};
    for (const f of TEXT_FILTERS) if (values[f.name]!.trim()) out[f.name] = values[f.name]!.trim();
    if (values['range']) out['range'] = values['range'];
    if (values['range'] === 'custom') {
      const from = fromLocalInput(values['from']!);
      const to = fromLocalInput(values['to']!);
      if (from) out['from'] = from;
      if (to) out['to'] = to;
    }
    props.onApply(out);
  };

  return (
    <form class="toolbar filters" aria-label="Log filters" onSubmit={apply}>
      {TEXT_FILTERS.map((f) => (
        <Field key={f.name} id={ids[f.name]!} label={f.label} hint={f.hint}>
          <input id={ids[f.name]} type="text" value={values[f.name]} onInput={set(f.name)} autoComplete="off" spellcheck={false} />
        </Field>
      ))}
      <Field id={ids['range']!} label="Time range">
        <select id={ids['range']} value={values['range']} onChange={set('range')}>
          <option value="">Any time</option>
          {RANGE_CHOICES.map((c) => <option key={c.value} value={c.value}>{c.label}</option>)}
        </select>
      </Field>
      {values['range'] === 'custom' && (
        <>
          <Field id={ids['from']!} label="From"><input id={ids['from']} type="datetime-local" value={values['from']} onInput={set('from')} /></Field>
          <Field id={ids['to']!} label="To"><input id={ids['to']} type="datetime-local" value={values['to']} onInput={set('to')} /></Field>
        </>
      )}
      <div class="actions">
        <button type="submit">Apply filters</button>
        <button type="button" class="secondary" onClick={() => props.onApply({})}>Clear filters</button>
      </div>
    </form>
  );
}
