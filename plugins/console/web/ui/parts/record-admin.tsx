/**
 * One administration list: a table of records with Edit and Delete on each row, a "New" button,
 * and the page's form in a panel below. The page brings the columns and the form; every refusal
 * (list, save, delete) is shown with the gateway's own message.
 */
import type { ComponentChildren, FunctionComponent } from 'preact';
import { useLayoutEffect, useRef, useState } from 'preact/hooks';
import { useConsole } from '../context';
import type { ListAnswer } from './list-page';
import { ErrorNote, Loading } from './notes';
import { useLoad } from './use-load';

export interface Column<T> {
  label: string;
  value(record: T): ComponentChildren;
}

/** What a page's form gets: the record to edit (none: a new one) and how to close. */
export interface FormProps<T> {
  record?: T;
  done(saved: boolean): void;
}

export interface RecordAdminProps<T> {
  /** As in "New integration", "Edit integration acme". */
  noun: string;
  path: string;
  columns: Column<T>[];
  idOf(record: T): string;
  nameOf(record: T): string;
  form: FunctionComponent<FormProps<T>>;
  /** Which writes the caller's rights allow (the gateway decides anyway). */
  can: { create: boolean; update: boolean; delete: boolean };
  /** What deleting means, for the confirmation ("it is archived"). */
  deleteNote?: string;
}

type Editing<T> = { record?: T } | undefined;

export function RecordAdmin<T>(props: RecordAdminProps<T>) {
  const { api } = useConsole();
  // The routes' largest page; more is rare for these records, and said when so.
  const list = useLoad(() => api.get<ListAnswer<T>>(props.path, { page_size: 100 }), [props.path]);
  const [editing, setEditing] = useState<Editing<T>>();
  const [error, setError] = useState<string>();
  const editor = useRef<HTMLElement>(null);
  const Form = props.form;
  // Keyboard users land in the form they opened; at once (a layout effect), so no keystroke goes elsewhere.
  useLayoutEffect(() => editor.current?.querySelector<HTMLElement>('input, select, textarea')?.focus(), [editing]);

  const remove = async (record: T) => {
    const name = props.nameOf(record);
    if (!window.confirm(`Delete ${props.noun} "${name}"?${props.deleteNote ? ` ${props.deleteNote}` : ''}`)) return;
    setError(undefined);
    try {
      await api.delete(`${props.path}/${encodeURIComponent(props.idOf(record))}`);
      if (editing?.record && props.idOf(editing.record) === props.idOf(record)) setEditing(undefined);
      list.reload();
    } catch (e) {
      setError((e as Error).message);
    }
  };
  const done = (saved: boolean) => {
    setEditing(undefined);
    if (saved) list.reload();
  };

  const rows = list.value?.data ?? [];
  const title = editing?.record ? `Edit ${props.noun} ${props.nameOf(editing.record)}` : `New ${props.noun}`;
  return (
    <div class="record-admin">
      <div class="toolbar">
        {props.can.create && <button type="button" onClick={() => setEditing({})}>New {props.noun}</button>}
      </div>
      <ErrorNote error={list.error ?? error} />
      <Loading when={list.loading && !list.value} />
      {list.value && rows.length === 0 && <p class="muted">None yet.</p>}
      {(list.value?.total_count ?? 0) > rows.length && <p class="muted">The first {rows.length} of {list.value?.total_count}.</p>}
      {rows.length > 0 && (
        <table aria-label={`${props.noun}s`}>
          <thead>
            <tr>{props.columns.map((c) => <th key={c.label} scope="col">{c.label}</th>)}<th scope="col">Actions</th></tr>
          </thead>
          <tbody>
            {rows.map((r) => (
              <tr key={props.idOf(r)}>
                {props.columns.map((c) => <td key={c.label}>{c.value(r)}</td>)}
                <td class="actions">
                  {props.can.update && <button type="button" class="secondary" aria-label={`Edit ${props.nameOf(r)}`} onClick={() => setEditing({ record: r })}>Edit</button>}
                  {props.can.delete && <button type="button" class="danger" aria-label={`Delete ${props.nameOf(r)}`} onClick={() => void remove(r)}>Delete</button>}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {editing && (
        <section ref={editor} class="panel editor" aria-label={title} onKeyDown={(e) => e.key === 'Escape' && setEditing(undefined)}>
          <h2>{title}</h2>
          <Form key={editing.record ? props.idOf(editing.record) : 'new'} record={editing.record} done={done} />
        </section>
      )}
    </div>
  );
}

/**
 * A form's submit: the body is built (a bad JSON field throws, named), sent, and the gateway's
 * refusal is kept for the alert. `send` answers once saved.
 */
export function useSubmit(done: (saved: boolean) => void) {
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);
  const submit = (send: () => Promise<unknown>) => async (e: Event) => {
    e.preventDefault();
    setError(undefined);
    setBusy(true);
    try {
      await send();
      done(true);
    } catch (err) {
      setError((err as Error).message);
    } finally {
      setBusy(false);
    }
  };
  return { error, busy, submit };
}

/** Save and Cancel, and the refusal if any. */
export function FormButtons(props: { busy: boolean; error?: string; editing: boolean; done(saved: boolean): void }) {
  return (
    <>
      <ErrorNote error={props.error} />
      <div class="form-buttons">
        <button type="submit" disabled={props.busy}>{props.editing ? 'Save' : 'Create'}</button>
        <button type="button" class="secondary" onClick={() => props.done(false)}>Cancel</button>
      </div>
    </>
  );
}
