/** The "Default config" chooser of keys and workspaces: the stored configs the caller may list, or none. */
import { useConsole } from '../../context';
import { Field } from '../../parts/field';
import type { ListAnswer } from '../../parts/list-page';
import { useLoad } from '../../parts/use-load';
import { can } from '../../session';
import type { StoredConfig } from './records';

export function DefaultConfigField(props: { id: string; hint: string; value: string; onChange(id: string): void }) {
  const { api, me } = useConsole();
  const configs = useLoad(
    () => (can(me, 'configs.list') ? api.get<ListAnswer<StoredConfig>>('/v1/configs', { page_size: 100 }) : Promise.resolve(undefined)),
    [api],
  );
  if (!configs.value) return null;
  return (
    <Field id={props.id} label="Default config" hint={props.hint}>
      <select id={props.id} value={props.value} onChange={(e) => props.onChange(e.currentTarget.value)}>
        <option value="">None</option>
        {configs.value.data.map((c) => <option key={c.id} value={c.id}>{c.name} ({c.slug})</option>)}
      </select>
    </Field>
  );
}
