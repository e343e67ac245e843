/**
 * A modal dialog on the browser's own `<dialog>`: focus moves into it and stays there, Escape
 * closes it, and the page behind is inert — nothing of this needs re-implementing by hand.
 */
import type { ComponentChildren } from 'preact';
import { useEffect, useRef } from 'preact/hooks';

let counter = 0;

export function Dialog(props: { title: string; onClose(): void; children: ComponentChildren }) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useRef(`dialog-title-${++counter}`).current;
  useEffect(() => {
    const dialog = ref.current;
    // Unmounting removes it from the top layer; closing here would call onClose a second time.
    if (dialog && !dialog.open) dialog.showModal();
  }, []);
  return (
    <dialog ref={ref} aria-labelledby={titleId} onClose={props.onClose}>
      <h2 id={titleId}>{props.title}</h2>
      {props.children}
    </dialog>
  );
}

/** A question with a confirm and a cancel button; the refusal, if any, shown in it. */
export function ConfirmDialog(props: {
  title: string; confirm: string; busy?: boolean; error?: string; danger?: boolean;
  onConfirm(): void; onClose(): void; children: ComponentChildren;
}) {
  return (
    <Dialog title={props.title} onClose={props.onClose}>
      {props.children}
      {props.error && <p role="alert" class="error">{props.error}</p>}
      <div class="actions">
        <button type="button" class={props.danger ? 'danger' : undefined} disabled={props.busy} onClick={props.onConfirm}>{props.confirm}</button>
        <button type="button" class="secondary" onClick={props.onClose}>Cancel</button>
      </div>
    </Dialog>
  );
}
