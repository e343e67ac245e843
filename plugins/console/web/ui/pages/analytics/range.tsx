/** The analytics range control: a span back from now, or a custom from–to (applied by its button). */
import { useEffect, useMemo, useState } from 'preact/hooks';
import { Field, fieldId } from '../../parts/field';
import { fromLocalInput, RANGE_CHOICES, toLocalInput } from '../../parts/time-range';

export function RangeControl(props: { range: string; from: string | null; to: string | null; onChange(params: Record<string, string>): void; onRefresh(): void }) {
  const ids = useMemo(() => ({ range: fieldId(), from: fieldId(), to: fieldId() }), []);
  const [range, setRange] = useState(props.range);
  const [from, setFrom] = useState(toLocalInput(props.from));
  const [to, setTo] = useState(toLocalInput(props.to));
  useEffect(() => {
    setRange(props.range);
    setFrom(toLocalInput(props.from));
    setTo(toLocalInput(props.to));
  }, [props.range, props.from, props.to]);

  const choose = (value: string) => {
    setRange(value);
    if (value !== 'custom') props.onChange({ range: value });
  };
  const applyCustom = (e: Event) => {
    e.preventDefault();
    const out: Record<string, string> = { range: 'custom' };
    if (fromLocalInput(from)) out['from'] = fromLocalInput(from);
    if (fromLocalInput(to)) out['to'] = fromLocalInput(to);
    props.onChange(out);
  };
  return (
    <form class="toolbar" aria-label="Range" onSubmit={applyCustom}>
      <Field id={ids.range} label="Time range">
        <select id={ids.range} value={range} onChange={(e) => choose((e.currentTarget as HTMLSelectElement).value)}>
          {RANGE_CHOICES.map((c) => <option key={c.value} value={c.value}>{c.label}</option>)}
        </select>
      </Field>
      {range === 'custom' && (
        <>
          <Field id={ids.from} label="From"><input id={ids.from} type="datetime-local" value={from} onInput={(e) => setFrom((e.currentTarget as HTMLInputElement).value)} /></Field>
          <Field id={ids.to} label="To"><input id={ids.to} type="datetime-local" value={to} onInput={(e) => setTo((e.currentTarget as HTMLInputElement).value)} /></Field>
          <div class="actions"><button type="submit">Apply range</button></div>
        </>
      )}
      <div class="actions"><button type="button" class="secondary" onClick={props.onRefresh}>Refresh</button></div>
    </form>
  );
}
