/** The figures per group (GET /v1/analytics/groups/:groupBy) over the chosen range. */
import { useMemo } from 'preact/hooks';
import { useConsole } from '../../context';
import { Field, fieldId } from '../../parts/field';
import type { ListAnswer } from '../../parts/list-page';
import { ErrorNote, Loading } from '../../parts/notes';
import { useLoad } from '../../parts/use-load';
import { count, millis, money, percent } from './format';

export const GROUP_BYS: readonly { value: string; label: string }[] = [
  { value: 'provider', label: 'Provider' },
  { value: 'ai_service', label: 'AI service' },
  { value: 'model', label: 'Model' },
  { value: 'status_code', label: 'Status' },
  { value: 'api_key', label: 'API key' },
  { value: 'workspace', label: 'Workspace' },
  { value: 'config', label: 'Config' },
  { value: 'prompt', label: 'Prompt' },
];

const COLUMNS: readonly { name: string; label: string; format(v: number | null): string }[] = [
  { name: 'requests', label: 'Requests', format: count },
  { name: 'error_count', label: 'Errors', format: count },
  { name: 'success_rate', label: 'Success rate', format: percent },
  { name: 'avg_latency', label: 'Mean latency', format: millis },
  { name: 'p95_latency', label: 'p95 latency', format: millis },
  { name: 'total_tokens', label: 'Tokens', format: count },
  { name: 'cost', label: 'Cost', format: money },
  { name: 'cache_hit_rate', label: 'Cache hit rate', format: percent },
];
const ASKED = COLUMNS.filter((c) => c.name !== 'requests').map((c) => c.name).join(',');

type Group = Record<string, string | number | null>;

export function GroupsTable(props: { groupBy: string; range: Record<string, string | undefined>; onGroupBy(value: string): void }) {
  const { api } = useConsole();
  const id = useMemo(fieldId, []);
  const loaded = useLoad(
    () => api.get<ListAnswer<Group>>(`/v1/analytics/groups/${encodeURIComponent(props.groupBy)}`, { ...props.range, columns: ASKED, page_size: 100 }),
    [api, props.groupBy, JSON.stringify(props.range)],
  );
  const label = GROUP_BYS.find((g) => g.value === props.groupBy)?.label ?? props.groupBy;
  const list = loaded.value;
  return (
    <section aria-labelledby="groups-title">
      <h2 id="groups-title">By {label.toLowerCase()}</h2>
      <Field id={id} label="Group by">
        <select id={id} value={props.groupBy} onChange={(e) => props.onGroupBy((e.currentTarget as HTMLSelectElement).value)}>
          {GROUP_BYS.map((g) => <option key={g.value} value={g.value}>{g.label}</option>)}
        </select>
      </Field>
      <ErrorNote error={loaded.error} />
      <Loading when={loaded.loading && !list} />
      {list && list.data.length === 0 && <p class="muted">No request in this range.</p>}
      {list && list.data.length > 0 && (
        <table aria-label={`Figures by ${label.toLowerCase()}`}>
          <thead>
            <tr><th scope="col">{label}</th>{COLUMNS.map((c) => <th key={c.name} scope="col">{c.label}</th>)}</tr>
          </thead>
          <tbody>
            {list.data.map((row, i) => (
              <tr key={`${String(row[props.groupBy])}-${i}`}>
                <th scope="row">{groupName(row, props.groupBy)}</th>
                {COLUMNS.map((c) => <td key={c.name}>{c.format(row[c.name] === null || row[c.name] === undefined ? null : Number(row[c.name]))}</td>)}
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {list && (list.total_count ?? 0) > list.data.length && <p class="muted">The {list.data.length} largest of {list.total_count} groups.</p>}
    </section>
  );
}

function groupName(row: Group, groupBy: string): string {
  const value = row[groupBy];
  const name = groupBy === 'api_key' ? row['api_key_name'] : undefined;
  if (value === null || value === undefined) return '(none)';
  return name ? `${name} (${value})` : String(value);
}
