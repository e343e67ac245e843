/**
 * Workspaces: the list (#/workspaces) and one workspace with its members (#/workspaces?id=…).
 * Deleting archives: the gateway keeps the record and refuses the workspace's keys.
 */
import { useState } from 'preact/hooks';
import { useConsole } from '../../context';
import { ConfirmDialog, Dialog } from '../../parts/dialog';
import { timeText, type ListAnswer } from '../../parts/list-page';
import { ErrorNote, Loading } from '../../parts/notes';
import { countText, Pager } from '../../parts/pager';
import { useLoad } from '../../parts/use-load';
import { href, navigate, useLocation } from '../../router';
import { can, type Me } from '../../session';
import { Members } from './members';
import type { Workspace } from './records';
import { WorkspaceForm } from './workspace-form';

const PAGE_SIZE = 50;

/** Archived workspaces are listed for organisation owners and admins only (the gateway's rule). */
function seesArchived(me: Me): boolean {
  return me.type === 'organisation-owner' || (me.workspace_id === undefined && (me.role === 'owner' || me.role === 'admin'));
}

export function WorkspacesPage() {
  const id = useLocation().params.get('id');
  return id ? <WorkspaceDetail id={id} /> : <WorkspaceList />;
}

function WorkspaceList() {
  const { api, me } = useConsole();
  const [page, setPage] = useState(0);
  const [archived, setArchived] = useState(false);
  const [creating, setCreating] = useState(false);
  const list = useLoad(
    () => api.get<ListAnswer<Workspace>>('/v1/workspaces', { current_page: page, page_size: PAGE_SIZE, status: archived ? 'active,archived' : undefined }),
    [api, page, archived],
  );
  const open = (w: Workspace) => navigate('workspaces', { id: w.id });
  return (
    <section aria-labelledby="workspaces-title">
      <h1 id="workspaces-title">Workspaces</h1>
      <div class="toolbar">
        {can(me, 'workspaces.create') && me.workspace_id === undefined && <button type="button" onClick={() => setCreating(true)}>Create workspace</button>}
        {seesArchived(me) && (
          <label class="inline"><input type="checkbox" checked={archived} onChange={(e) => { setPage(0); setArchived(e.currentTarget.checked); }} /> Show archived</label>
        )}
      </div>
      <ErrorNote error={list.error} />
      <Loading when={list.loading && !list.value} />
      {list.value?.data.length === 0 && <p class="muted">No workspaces here.</p>}
      {list.value && list.value.data.length > 0 && (
        <table>
          <caption class="muted">{countText(list.value.total_count ?? list.value.data.length, 'workspace')}</caption>
          <thead><tr><th scope="col">Name</th><th scope="col">Slug</th><th scope="col">Status</th><th scope="col">Description</th><th scope="col">Created</th></tr></thead>
          <tbody>
            {list.value.data.map((w) => (
              <tr key={w.id} tabIndex={0} onClick={() => open(w)} onKeyDown={(e) => e.key === 'Enter' && open(w)}>
                <td><a href={href('workspaces', { id: w.id })}>{w.name}</a>{w.is_default && <span class="muted"> (default)</span>}</td>
                <td>{w.slug}</td>
                <td>{w.status}</td>
                <td class="wrap">{w.description}</td>
                <td>{timeText(w.created_at)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <Pager page={page} size={PAGE_SIZE} total={list.value?.total_count} label="Workspace pages" onPage={setPage} />
      {creating && (
        <Dialog title="Create workspace" onClose={() => setCreating(false)}>
          <WorkspaceForm onCancel={() => setCreating(false)} onSaved={(w) => { setCreating(false); open(w); }} />
        </Dialog>
      )}
    </section>
  );
}

function WorkspaceDetail(props: { id: string }) {
  const { api, me } = useConsole();
  const [editing, setEditing] = useState(false);
  const [deleting, setDeleting] = useState(false);
  const [deleteError, setDeleteError] = useState<string | undefined>();
  const loaded = useLoad(() => api.get<Workspace>(`/v1/workspaces/${encodeURIComponent(props.id)}`), [api, props.id]);
  const w = loaded.value;
  const archive = () => {
    api.delete(`/v1/workspaces/${encodeURIComponent(props.id)}`).then(() => navigate('workspaces'), (e: Error) => setDeleteError(e.message));
  };
  return (
    <section aria-labelledby="workspace-title">
      <p><a href={href('workspaces')}>← Workspaces</a></p>
      <h1 id="workspace-title">{w ? `Workspace ${w.name}` : 'Workspace'}</h1>
      <ErrorNote error={loaded.error} />
      <Loading when={loaded.loading && !w} />
      {w && (
        <>
          <dl class="facts">
            <dt>Id</dt><dd>{w.id}</dd>
            <dt>Slug</dt><dd>{w.slug}</dd>
            <dt>Status</dt><dd>{w.status}{w.is_default ? ' (the default workspace)' : ''}</dd>
            <dt>Description</dt><dd>{w.description}</dd>
            <dt>Default config</dt><dd>{w.default_config_id ?? 'none'}</dd>
            <dt>Created</dt><dd>{timeText(w.created_at)}</dd>
            {w.archived_at && <><dt>Archived</dt><dd>{timeText(w.archived_at)}</dd></>}
          </dl>
          <div class="actions">
            {can(me, 'workspaces.update') && <button type="button" onClick={() => setEditing(true)}>Edit</button>}
            {can(me, 'workspaces.delete') && w.status === 'active' && !w.is_default && (
              <button type="button" class="danger" onClick={() => setDeleting(true)}>Delete</button>
            )}
          </div>
          {can(me, 'workspace_users.read') && <Members workspace={w} />}
        </>
      )}
      {editing && w && (
        <Dialog title={`Edit workspace ${w.name}`} onClose={() => setEditing(false)}>
          <WorkspaceForm workspace={w} onCancel={() => setEditing(false)} onSaved={() => { setEditing(false); loaded.reload(); }} />
        </Dialog>
      )}
      {deleting && w && (
        <ConfirmDialog title={`Delete workspace ${w.name}`} confirm="Delete" danger error={deleteError} onConfirm={archive} onClose={() => { setDeleting(false); setDeleteError(undefined); }}>
          <p>The gateway archives the workspace: its record stays, and its keys are refused while it is archived.</p>
        </ConfirmDialog>
      )}
    </section>
  );
}
