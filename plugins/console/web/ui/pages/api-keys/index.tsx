/**
 * API keys: the organisation's (or workspace's) keys, with create, rotate and delete. A secret
 * lives only in the open dialog's state: closing it forgets it.
 */
import { useState } from 'preact/hooks';
import { useConsole } from '../../context';
import { Dialog } from '../../parts/dialog';
import { timeText, type ListAnswer } from '../../parts/list-page';
import { ErrorNote, Loading } from '../../parts/notes';
import { countText, Pager } from '../../parts/pager';
import { useLoad } from '../../parts/use-load';
import { can } from '../../session';
import type { Workspace } from '../workspaces/records';
import { CreateKeyForm } from './create-key';
import { DeleteKey, RotateKey } from './key-actions';
import type { ApiKey } from './records';
import { SecretOnce } from './secret-once';

const PAGE_SIZE = 50;

type Open =
  | { kind: 'create' }
  | { kind: 'secret'; title: string; secret: string; oldValidUntil?: string | null }
  | { kind: 'rotate'; key: ApiKey }
  | { kind: 'delete'; key: ApiKey };

export function ApiKeysPage() {
  const { api, me } = useConsole();
  const [page, setPage] = useState(0);
  const [withDeleted, setWithDeleted] = useState(false);
  const [open, setOpen] = useState<Open | undefined>();
  const [error, setError] = useState<string | undefined>();
  const keys = useLoad(
    () => api.get<ListAnswer<ApiKey>>('/v1/api-keys', { current_page: page, page_size: PAGE_SIZE, status: withDeleted ? 'active,deleted' : undefined }),
    [api, page, withDeleted],
  );
  const workspaces = useLoad(
    () => (can(me, 'workspaces.read') ? api.get<ListAnswer<Workspace>>('/v1/workspaces', { page_size: 100 }) : Promise.resolve(undefined)),
    [api],
  );
  const workspaceName = (id: string | null) => (id === null ? '' : workspaces.value?.data.find((w) => w.id === id)?.slug ?? id);
  const close = () => setOpen(undefined);
  const changed = (next?: Open) => {
    setOpen(next);
    keys.reload();
  };
  const readPending = (key: ApiKey) => {
    setError(undefined);
    api.get<{ key: string }>(`/v1/api-keys/${encodeURIComponent(key.id)}/pending-secret`).then(
      (answer) => changed({ kind: 'secret', title: `Secret of "${key.name}"`, secret: answer.key }),
      (e: Error) => setError(e.message),
    );
  };

  return (
    <section aria-labelledby="api-keys-title">
      <h1 id="api-keys-title">API keys</h1>
      <div class="toolbar">
        {can(me, 'api_keys.create') && <button type="button" onClick={() => setOpen({ kind: 'create' })}>Create key</button>}
        <label class="inline"><input type="checkbox" checked={withDeleted} onChange={(e) => { setPage(0); setWithDeleted(e.currentTarget.checked); }} /> Show deleted keys</label>
      </div>
      <ErrorNote error={keys.error ?? error} />
      <Loading when={keys.loading && !keys.value} />
      {keys.value?.data.length === 0 && <p class="muted">No keys here.</p>}
      {keys.value && keys.value.data.length > 0 && (
        <table>
          <caption class="muted">{countText(keys.value.total_count ?? keys.value.data.length, 'key')}</caption>
          <thead>
            <tr><th scope="col">Name</th><th scope="col">Type</th><th scope="col">Workspace</th><th scope="col">Scopes</th><th scope="col">Status</th><th scope="col">Created</th><th scope="col">Expires</th><th scope="col">Last rotated</th><th scope="col"><span class="sr-only">Actions</span></th></tr>
          </thead>
          <tbody>
            {keys.value.data.map((key) => (
              <tr key={key.id}>
                <td>{key.name}</td>
                <td>{key.type}</td>
                <td>{workspaceName(key.workspace_id)}</td>
                <td class="wrap">{key.scopes.join(', ') || <span class="muted">none</span>}</td>
                <td>{key.status}</td>
                <td>{timeText(key.created_at)}</td>
                <td>{timeText(key.expires_at)}</td>
                <td>{timeText(key.last_reset_at)}</td>
                <td class="row-actions">
                  {key.status === 'active' && key.has_pending_secret && (
                    <button type="button" class="secondary" aria-label={`Read the new secret of ${key.name}`} onClick={() => readPending(key)}>Read secret</button>
                  )}
                  {key.status === 'active' && can(me, 'api_keys.rotate') && (
                    <button type="button" class="secondary" aria-label={`Rotate ${key.name}`} onClick={() => setOpen({ kind: 'rotate', key })}>Rotate</button>
                  )}
                  {key.status === 'active' && key.type !== 'organisation-owner' && can(me, 'api_keys.delete') && (
                    <button type="button" class="danger" aria-label={`Delete ${key.name}`} onClick={() => setOpen({ kind: 'delete', key })}>Delete</button>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <Pager page={page} size={PAGE_SIZE} total={keys.value?.total_count} label="API key pages" onPage={setPage} />

      {open?.kind === 'create' && (
        <Dialog title="Create key" onClose={close}>
          <CreateKeyForm
            onCancel={close}
            onCreated={(key) => changed({ kind: 'secret', title: `Key "${key.name}" created`, secret: key.key ?? '' })}
          />
        </Dialog>
      )}
      {open?.kind === 'secret' && (
        <Dialog title={open.title} onClose={close}>
          <SecretOnce secret={open.secret} oldValidUntil={open.oldValidUntil} onDone={close} />
        </Dialog>
      )}
      {open?.kind === 'rotate' && (
        <RotateKey
          apiKey={open.key}
          onClose={close}
          onRotated={(key) => changed({ kind: 'secret', title: `Key "${key.name}" rotated`, secret: key.key ?? '', oldValidUntil: key.previous_key_valid_until })}
        />
      )}
      {open?.kind === 'delete' && <DeleteKey apiKey={open.key} onClose={close} onDeleted={() => changed()} />}
    </section>
  );
}
