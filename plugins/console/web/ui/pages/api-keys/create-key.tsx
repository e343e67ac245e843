/**
 * The "Create key" form: the fields POST /v1/api-keys takes that a person sets by hand. On success
 * the dialog turns into the secret, shown once.
 */
import { useEffect, useMemo, useState } from 'preact/hooks';
import { useConsole } from '../../context';
import { Field, fieldId } from '../../parts/field';
import type { ListAnswer } from '../../parts/list-page';
import { useLoad } from '../../parts/use-load';
import { can } from '../../session';
import { DefaultConfigField } from '../configs/default-config-field';
import type { Workspace } from '../workspaces/records';
import { KEY_TYPES, scopesFrom, type ApiKey } from './records';

export function CreateKeyForm(props: { onCreated(key: ApiKey): void; onCancel(): void }) {
  const { api, me } = useConsole();
  const ids = useMemo(() => ({ name: fieldId(), type: fieldId(), workspace: fieldId(), user: fieldId(), scopes: fieldId(), expires: fieldId(), config: fieldId() }), []);
  const orgLevel = me.workspace_id === undefined;
  const [name, setName] = useState('');
  const [type, setType] = useState<string>(orgLevel ? 'organisation-service' : 'workspace-service');
  const [workspace, setWorkspace] = useState(me.workspace_id ?? '');
  const [user, setUser] = useState('');
  const [scopes, setScopes] = useState('');
  const [expires, setExpires] = useState('');
  const [config, setConfig] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | undefined>();
  const workspaces = useLoad(
    () => (orgLevel && can(me, 'workspaces.read') ? api.get<ListAnswer<Workspace>>('/v1/workspaces', { page_size: 100 }) : Promise.resolve(undefined)),
    [api],
  );
  const inWorkspace = type !== 'organisation-service';
  useEffect(() => {
    const preset = workspaces.value?.data.find((w) => w.is_default);
    if (preset && !workspace) setWorkspace(preset.id);
  }, [workspaces.value]);

  const submit = async (e: Event) => {
    e.preventDefault();
    const body: Record<string, unknown> = { name: name.trim(), type, scopes: scopesFrom(scopes) };
    if (inWorkspace && workspace) body['workspace_id'] = workspace;
    if (type === 'workspace-user' && user.trim()) body['user_id'] = user.trim();
    if (expires) body['expires_at'] = new Date(expires).toISOString();
    if (config) body['default_config_id'] = config;
    setBusy(true);
    setError(undefined);
    try {
      props.onCreated(await api.post<ApiKey>('/v1/api-keys', body));
    } catch (err) {
      setError((err as Error).message);
      setBusy(false);
    }
  };

  return (
    <form onSubmit={submit}>
      <Field id={ids.name} label="Name">
        <input id={ids.name} value={name} onInput={(e) => setName(e.currentTarget.value)} required maxLength={255} autoFocus />
      </Field>
      <Field id={ids.type} label="Type">
        <select id={ids.type} value={type} onChange={(e) => setType(e.currentTarget.value)}>
          {KEY_TYPES.filter((t) => orgLevel || t !== 'organisation-service').map((t) => <option key={t} value={t}>{t}</option>)}
        </select>
      </Field>
      {inWorkspace && orgLevel && (
        <Field id={ids.workspace} label="Workspace" hint={workspaces.value ? undefined : 'Id or slug.'}>
          {workspaces.value ? (
            <select id={ids.workspace} value={workspace} onChange={(e) => setWorkspace(e.currentTarget.value)} required>
              <option value="">Choose a workspace</option>
              {workspaces.value.data.map((w) => <option key={w.id} value={w.id}>{w.name} ({w.slug})</option>)}
            </select>
          ) : (
            <input id={ids.workspace} value={workspace} onInput={(e) => setWorkspace(e.currentTarget.value)} required />
          )}
        </Field>
      )}
      {type === 'workspace-user' && (
        <Field id={ids.user} label="User id" hint="The member who holds the key; empty: yourself.">
          <input id={ids.user} value={user} onInput={(e) => setUser(e.currentTarget.value)} />
        </Field>
      )}
      <Field id={ids.scopes} label="Scopes" hint="Separated by commas or spaces, e.g. configs.list, logs.read. Empty: no admin rights (model calls only).">
        <input id={ids.scopes} value={scopes} onInput={(e) => setScopes(e.currentTarget.value)} />
      </Field>
      <Field id={ids.expires} label="Expires at" hint="Optional; your local time.">
        <input id={ids.expires} type="datetime-local" value={expires} onInput={(e) => setExpires(e.currentTarget.value)} />
      </Field>
      <DefaultConfigField id={ids.config} hint="Routes the key's requests that name no config." value={config} onChange={setConfig} />
      {error && <p role="alert" class="error">{error}</p>}
      <div class="actions">
        <button type="submit" disabled={busy}>Create</button>
        <button type="button" class="secondary" onClick={props.onCancel}>Cancel</button>
      </div>
    </form>
  );
}
