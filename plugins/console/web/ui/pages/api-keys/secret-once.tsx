/**
 * A key's secret, shown this once: the gateway keeps only its hash, and the console keeps it only
 * in this component's state, gone when the dialog closes.
 */
import { useMemo, useState } from 'preact/hooks';
import { fieldId } from '../../parts/field';
import { timeText } from '../../parts/list-page';

export function SecretOnce(props: { secret: string; oldValidUntil?: string | null; onDone(): void }) {
  const id = useMemo(fieldId, []);
  const [copied, setCopied] = useState<string | undefined>();
  const copy = () => {
    navigator.clipboard.writeText(props.secret).then(
      () => setCopied('Copied.'),
      () => setCopied('The browser refused the clipboard: select the secret and copy it.'),
    );
  };
  return (
    <div>
      <p class="warn-note"><strong>Shown once.</strong> Copy this secret now: neither the gateway nor the console can show it again.</p>
      <label for={id}>New secret</label>
      <input id={id} class="secret" readOnly value={props.secret} onFocus={(e) => e.currentTarget.select()} />
      {props.oldValidUntil && <p class="muted">The previous secret keeps working until {timeText(props.oldValidUntil)}.</p>}
      <p role="status" class="muted">{copied}</p>
      <div class="actions">
        <button type="button" onClick={copy}>Copy secret</button>
        <button type="button" class="secondary" onClick={props.onDone}>Done</button>
      </div>
    </div>
  );
}
