/**
 * A workspace's members: add one (by user id, or by email: the organisation's user with that
 * email, made when there is none), change a role, remove one.
 */
import { useMemo, useState } from 'preact/hooks';
import type { Api } from '../../api';
import { useConsole } from '../../context';
import { ConfirmDialog } from '../../parts/dialog';
import { Field, fieldId } from '../../parts/field';
import { timeText, type ListAnswer } from '../../parts/list-page';
import { ErrorNote, Loading } from '../../parts/notes';
import { countText, Pager } from '../../parts/pager';
import { useLoad } from '../../parts/use-load';
import { can } from '../../session';
import { WORKSPACE_ROLES, type Member, type User, type Workspace } from './records';

const PAGE_SIZE = 50;

export function Members(props: { workspace: Workspace }) {
  const { api, me } = useConsole();
  const base = `/v1/workspaces/${encodeURIComponent(props.workspace.id)}/members`;
  const [page, setPage] = useState(0);
  const [error, setError] = useState<string | undefined>();
  const [removing, setRemoving] = useState<Member | undefined>();
  const members = useLoad(() => api.get<ListAnswer<Member>>(base, { current_page: page, page_size: PAGE_SIZE }), [api, base, page]);
  const who = (m: Member) => m.email ?? m.user_id;

  const setRole = (member: Member, role: string) => {
    setError(undefined);
    api.put(`${base}/${encodeURIComponent(member.user_id)}`, { role }).then(members.reload, (e: Error) => {
      setError(e.message);
      members.reload();
    });
  };

  return (
    <section aria-labelledby="members-title">
      <h2 id="members-title">Members</h2>
      {can(me, 'workspace_users.create') && props.workspace.status === 'active' && <AddMember base={base} onAdded={members.reload} />}
      <ErrorNote error={members.error ?? error} />
      <Loading when={members.loading && !members.value} />
      {members.value?.data.length === 0 && <p class="muted">No members yet.</p>}
      {members.value && members.value.data.length > 0 && (
        <table>
          <caption class="muted">{countText(members.value.total_count ?? members.value.data.length, 'member')}</caption>
          <thead><tr><th scope="col">Email</th><th scope="col">Name</th><th scope="col">User id</th><th scope="col">Role</th><th scope="col">Since</th><th scope="col"><span class="sr-only">Actions</span></th></tr></thead>
          <tbody>
            {members.value.data.map((m) => (
              <tr key={m.user_id}>
                <td>{m.email}</td>
                <td>{m.name}</td>
                <td>{m.user_id}</td>
                <td>
                  {can(me, 'workspace_users.update') ? (
                    <select aria-label={`Role of ${who(m)}`} value={m.role} onChange={(e) => setRole(m, e.currentTarget.value)}>
                      {WORKSPACE_ROLES.map((r) => <option key={r} value={r}>{r}</option>)}
                    </select>
                  ) : m.role}
                </td>
                <td>{timeText(m.created_at)}</td>
                <td class="row-actions">
                  {can(me, 'workspace_users.delete') && (
                    <button type="button" class="danger" aria-label={`Remove ${who(m)}`} onClick={() => setRemoving(m)}>Remove</button>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <Pager page={page} size={PAGE_SIZE} total={members.value?.total_count} label="Member pages" onPage={setPage} />
      {removing && (
        <RemoveMember base={base} member={removing} label={who(removing)} onClose={() => setRemoving(undefined)} onRemoved={() => { setRemoving(undefined); members.reload(); }} />
      )}
    </section>
  );
}

function AddMember(props: { base: string; onAdded(): void }) {
  const { api } = useConsole();
  const ids = useMemo(() => ({ user: fieldId(), role: fieldId() }), []);
  const [user, setUser] = useState('');
  const [role, setRole] = useState('member');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | undefined>();
  const [note, setNote] = useState<string | undefined>();
  const submit = async (e: Event) => {
    e.preventDefault();
    setBusy(true);
    setError(undefined);
    setNote(undefined);
    try {
      const userId = await userIdOf(api, user.trim());
      const added = await api.post<Member & { api_key: { has_pending_secret: boolean } | null }>(props.base, { user_id: userId, role });
      setUser('');
      setNote(`Added ${added.email ?? added.user_id} as ${added.role}.${added.api_key?.has_pending_secret ? ' A key was made for them: its secret can be read once on the API keys page.' : ''}`);
      props.onAdded();
    } catch (err) {
      setError((err as Error).message);
    }
    setBusy(false);
  };
  return (
    <form class="toolbar" onSubmit={submit} aria-label="Add a member">
      <Field id={ids.user} label="User id or email">
        <input id={ids.user} value={user} onInput={(e) => setUser(e.currentTarget.value)} required />
      </Field>
      <Field id={ids.role} label="Role">
        <select id={ids.role} value={role} onChange={(e) => setRole(e.currentTarget.value)}>
          {WORKSPACE_ROLES.map((r) => <option key={r} value={r}>{r}</option>)}
        </select>
      </Field>
      <button type="submit" disabled={busy}>Add member</button>
      {error && <p role="alert" class="error">{error}</p>}
      {note && <p role="status" class="ok">{note}</p>}
    </form>
  );
}

/** An email names the organisation's user with it, made (role member) when there is none. */
async function userIdOf(api: Api, text: string): Promise<string> {
  if (!text.includes('@')) return text;
  const found = await api.get<ListAnswer<User>>('/v1/users', { email: text, page_size: 1 });
  if (found.data[0]) return found.data[0].id;
  return (await api.post<User>('/v1/users', { email: text })).id;
}

function RemoveMember(props: { base: string; member: Member; label: string; onClose(): void; onRemoved(): void }) {
  const { api } = useConsole();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | undefined>();
  const remove = () => {
    setBusy(true);
    api.delete(`${props.base}/${encodeURIComponent(props.member.user_id)}`).then(props.onRemoved, (e: Error) => {
      setError(e.message);
      setBusy(false);
    });
  };
  return (
    <ConfirmDialog title={`Remove ${props.label}`} confirm="Remove" danger busy={busy} error={error} onConfirm={remove} onClose={props.onClose}>
      <p>They lose access to this workspace, and their keys in it are deleted.</p>
    </ConfirmDialog>
  );
}
