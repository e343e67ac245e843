/** Rotating and deleting a key, each behind a confirmation that says what will happen. */
import { useMemo, useState } from 'preact/hooks';
import { useConsole } from '../../context';
import { ConfirmDialog } from '../../parts/dialog';
import { Field, fieldId } from '../../parts/field';
import type { ApiKey } from './records';

const MINUTE = 60_000;
/** The route's bounds: 30 minutes to 30 days. */
const WINDOWS: ReadonlyArray<[string, number | undefined]> = [
  ["The key's policy, else 30 minutes", undefined],
  ['1 hour', 60 * MINUTE],
  ['1 day', 24 * 60 * MINUTE],
  ['7 days', 7 * 24 * 60 * MINUTE],
];

export function RotateKey(props: { apiKey: ApiKey; onRotated(key: ApiKey): void; onClose(): void }) {
  const { api } = useConsole();
  const id = useMemo(fieldId, []);
  const [choice, setChoice] = useState(0);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | undefined>();
  const rotate = async () => {
    setBusy(true);
    const ms = WINDOWS[choice]![1];
    try {
      props.onRotated(await api.post<ApiKey>(`/v1/api-keys/${encodeURIComponent(props.apiKey.id)}/rotate`, ms ? { key_transition_period_ms: ms } : {}));
    } catch (e) {
      setError((e as Error).message);
      setBusy(false);
    }
  };
  return (
    <ConfirmDialog title={`Rotate key "${props.apiKey.name}"`} confirm="Rotate" busy={busy} error={error} onConfirm={rotate} onClose={props.onClose}>
      <p>The key gets a new secret, shown once. The current secret keeps working for a transition window, then is refused.</p>
      <Field id={id} label="Old secret keeps working for">
        <select id={id} value={String(choice)} onChange={(e) => setChoice(Number(e.currentTarget.value))}>
          {WINDOWS.map(([label], i) => <option key={label} value={String(i)}>{label}</option>)}
        </select>
      </Field>
    </ConfirmDialog>
  );
}

export function DeleteKey(props: { apiKey: ApiKey; onDeleted(): void; onClose(): void }) {
  const { api } = useConsole();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | undefined>();
  const remove = async () => {
    setBusy(true);
    try {
      await api.delete(`/v1/api-keys/${encodeURIComponent(props.apiKey.id)}`);
      props.onDeleted();
    } catch (e) {
      setError((e as Error).message);
      setBusy(false);
    }
  };
  return (
    <ConfirmDialog title={`Delete key "${props.apiKey.name}"`} confirm="Delete" danger busy={busy} error={error} onConfirm={remove} onClose={props.onClose}>
      <p>Every secret of this key stops working at once. This cannot be undone.</p>
    </ConfirmDialog>
  );
}
