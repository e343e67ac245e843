/** Stored configs: the list (#/configs) and one config with its versions (#/configs?id=…). */
import { useState } from 'preact/hooks';
import { useConsole } from '../../context';
import { ConfirmDialog, Dialog } from '../../parts/dialog';
import { timeText, type ListAnswer } from '../../parts/list-page';
import { ErrorNote, Loading } from '../../parts/notes';
import { countText, Pager } from '../../parts/pager';
import { useLoad } from '../../parts/use-load';
import { href, navigate, useLocation } from '../../router';
import { can } from '../../session';
import { ConfigEditor } from './config-editor';
import type { StoredConfig } from './records';
import { Versions } from './versions';

const PAGE_SIZE = 50;

export function ConfigsPage() {
  const id = useLocation().params.get('id');
  return id ? <ConfigDetail id={id} /> : <ConfigList />;
}

function ConfigList() {
  const { api, me } = useConsole();
  const [page, setPage] = useState(0);
  const [creating, setCreating] = useState(false);
  const list = useLoad(() => api.get<ListAnswer<StoredConfig>>('/v1/configs', { current_page: page, page_size: PAGE_SIZE }), [api, page]);
  const open = (c: StoredConfig) => navigate('configs', { id: c.id });
  return (
    <section aria-labelledby="configs-title">
      <h1 id="configs-title">Configs</h1>
      <div class="toolbar">
        {can(me, 'configs.create') && <button type="button" onClick={() => setCreating(true)}>New config</button>}
      </div>
      <ErrorNote error={list.error} />
      <Loading when={list.loading && !list.value} />
      {list.value?.data.length === 0 && <p class="muted">No configs yet.</p>}
      {list.value && list.value.data.length > 0 && (
        <table>
          <caption class="muted">{countText(list.value.total_count ?? list.value.data.length, 'config')}</caption>
          <thead><tr><th scope="col">Name</th><th scope="col">Slug</th><th scope="col">Workspace</th><th scope="col">Version</th><th scope="col">Updated</th></tr></thead>
          <tbody>
            {list.value.data.map((c) => (
              <tr key={c.id} tabIndex={0} onClick={() => open(c)} onKeyDown={(e) => e.key === 'Enter' && open(c)}>
                <td><a href={href('configs', { id: c.id })}>{c.name}</a></td>
                <td>{c.slug}</td>
                <td>{c.workspace_id ?? <span class="muted">organisation</span>}</td>
                <td>{c.version}</td>
                <td>{timeText(c.last_updated_at)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <Pager page={page} size={PAGE_SIZE} total={list.value?.total_count} label="Config pages" onPage={setPage} />
      {creating && (
        <Dialog title="New config" onClose={() => setCreating(false)}>
          <ConfigEditor onCancel={() => setCreating(false)} onSaved={(c) => { setCreating(false); open(c); }} />
        </Dialog>
      )}
    </section>
  );
}

function ConfigDetail(props: { id: string }) {
  const { api, me } = useConsole();
  const [editing, setEditing] = useState(false);
  const [deleting, setDeleting] = useState(false);
  const [deleteError, setDeleteError] = useState<string | undefined>();
  const loaded = useLoad(() => api.get<StoredConfig>(`/v1/configs/${encodeURIComponent(props.id)}`), [api, props.id]);
  const c = loaded.value;
  const remove = () => {
    api.delete(`/v1/configs/${encodeURIComponent(props.id)}`).then(() => navigate('configs'), (e: Error) => setDeleteError(e.message));
  };
  return (
    <section aria-labelledby="config-title">
      <p><a href={href('configs')}>← Configs</a></p>
      <h1 id="config-title">{c ? `Config ${c.name}` : 'Config'}</h1>
      <ErrorNote error={loaded.error} />
      <Loading when={loaded.loading && !c} />
      {c && (
        <>
          <dl class="facts">
            <dt>Id</dt><dd>{c.id}</dd>
            <dt>Slug</dt><dd>{c.slug} <span class="muted">(send it as x-gw-config)</span></dd>
            <dt>Workspace</dt><dd>{c.workspace_id ?? 'organisation-wide'}</dd>
            <dt>Created</dt><dd>{timeText(c.created_at)}</dd>
          </dl>
          <div class="actions">
            {can(me, 'configs.update') && <button type="button" onClick={() => setEditing(true)}>Edit</button>}
            {can(me, 'configs.delete') && <button type="button" class="danger" onClick={() => setDeleting(true)}>Delete</button>}
          </div>
          <Versions key={c.version} config={c} />
        </>
      )}
      {editing && c && (
        <Dialog title={`Edit config ${c.name}`} onClose={() => setEditing(false)}>
          <ConfigEditor config={c} onCancel={() => setEditing(false)} onSaved={() => { setEditing(false); loaded.reload(); }} />
        </Dialog>
      )}
      {deleting && c && (
        <ConfirmDialog title={`Delete config ${c.name}`} confirm="Delete" danger error={deleteError} onConfirm={remove} onClose={() => { setDeleting(false); setDeleteError(undefined); }}>
          <p>The config and all its versions are deleted. Requests that name it, and keys or workspaces that use it by default, are refused until they name another.</p>
        </ConfirmDialog>
      )}
    </section>
  );
}
