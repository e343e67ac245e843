/** Small shared pieces: a refusal, a status line, JSON shown as text. */
import type { ComponentChildren } from 'preact';

export function ErrorNote(props: { error?: string }) {
  return props.error ? <p role="alert" class="error">{props.error}</p> : null;
}

export function Loading(props: { when: boolean; children?: ComponentChildren }) {
  return props.when ? <p role="status" class="muted">{props.children ?? 'Loading…'}</p> : null;
}

export function JsonBlock(props: { value: unknown; label: string }) {
  return <pre aria-label={props.label} tabIndex={0}>{JSON.stringify(props.value, null, 2)}</pre>;
}
