/** A labelled control: every input of the console has a visible label tied to it. */
import type { ComponentChildren } from 'preact';

let counter = 0;
/** An id for a control, stable for the component's life (pass it in: `useMemo(fieldId, [])`). */
export function fieldId(): string {
  return `field-${++counter}`;
}

export function Field(props: { id: string; label: string; hint?: string; children: ComponentChildren }) {
  return (
    <div class="field">
      <label for={props.id}>{props.label}</label>
      {props.children}
      {props.hint && <p class="muted hint">{props.hint}</p>}
    </div>
  );
}
