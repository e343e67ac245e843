/** Create or edit a workspace: the fields POST and PUT /v1/workspaces take. */
import { useMemo, useState } from 'preact/hooks';
import { useConsole } from '../../context';
import { Field, fieldId } from '../../parts/field';
import { DefaultConfigField } from '../configs/default-config-field';
import type { Workspace } from './records';

export function WorkspaceForm(props: { workspace?: Workspace; onSaved(workspace: Workspace): void; onCancel(): void }) {
  const { api } = useConsole();
  const ids = useMemo(() => ({ name: fieldId(), slug: fieldId(), description: fieldId(), config: fieldId() }), []);
  const before = props.workspace;
  const [name, setName] = useState(before?.name ?? '');
  const [slug, setSlug] = useState(before?.slug ?? '');
  const [description, setDescription] = useState(before?.description ?? '');
  const [config, setConfig] = useState(before?.default_config_id ?? '');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | undefined>();

  const submit = async (e: Event) => {
    e.preventDefault();
    setBusy(true);
    setError(undefined);
    try {
      props.onSaved(before ? await api.put<Workspace>(`/v1/workspaces/${encodeURIComponent(before.id)}`, changes()) : await api.post<Workspace>('/v1/workspaces', created()));
    } catch (err) {
      setError((err as Error).message);
      setBusy(false);
    }
  };
  const created = () => {
    const body: Record<string, unknown> = { name: name.trim() };
    if (slug.trim()) body['slug'] = slug.trim();
    if (description.trim()) body['description'] = description.trim();
    if (config) body['default_config_id'] = config;
    return body;
  };
  /** Only what changed: PUT refuses an empty body, and an unchanged slug need not be checked again. */
  const changes = () => {
    const body: Record<string, unknown> = {};
    if (name.trim() !== before!.name) body['name'] = name.trim();
    if (slug.trim() && slug.trim() !== before!.slug) body['slug'] = slug.trim();
    if (description.trim() !== (before!.description ?? '')) body['description'] = description.trim() || null;
    if (config !== (before!.default_config_id ?? '')) body['default_config_id'] = config || null;
    if (Object.keys(body).length === 0) body['name'] = before!.name;
    return body;
  };

  return (
    <form onSubmit={submit}>
      <Field id={ids.name} label="Name">
        <input id={ids.name} value={name} onInput={(e) => setName(e.currentTarget.value)} required maxLength={255} autoFocus />
      </Field>
      <Field id={ids.slug} label="Slug" hint={before ? undefined : 'Optional: made from the name.'}>
        <input id={ids.slug} value={slug} onInput={(e) => setSlug(e.currentTarget.value)} maxLength={64} />
      </Field>
      <Field id={ids.description} label="Description">
        <textarea id={ids.description} rows={3} value={description} onInput={(e) => setDescription(e.currentTarget.value)} maxLength={2000} />
      </Field>
      <DefaultConfigField id={ids.config} hint="Routes requests of the workspace's keys that name no config." value={config} onChange={setConfig} />
      {error && <p role="alert" class="error">{error}</p>}
      <div class="actions">
        <button type="submit" disabled={busy}>{before ? 'Save' : 'Create'}</button>
        <button type="button" class="secondary" onClick={props.onCancel}>Cancel</button>
      </div>
    </form>
  );
}
