/**
 * Labelled inputs for the administration forms: text, number, choice, and JSON (a textarea whose
 * text is parsed on submit, so a typo is named with the field's label before anything is sent).
 */
import { useMemo } from 'preact/hooks';
import { Field, fieldId } from './field';

interface Common {
  label: string;
  hint?: string;
  required?: boolean;
}

export function TextInput(props: Common & { value: string; onInput(value: string): void; type?: 'text' | 'password' | 'number' | 'url' | 'email' }) {
  const id = useMemo(fieldId, []);
  // Preact's input types are a union keyed by `type`; one component for several types widens it.
  const type = (props.type ?? 'text') as 'text';
  return (
    <Field id={id} label={props.label} hint={props.hint}>
      <input id={id} type={type} value={props.value} required={props.required}
        autocomplete={props.type === 'password' ? 'new-password' : 'off'} step={props.type === 'number' ? 'any' : undefined}
        onInput={(e) => props.onInput(e.currentTarget.value)} />
    </Field>
  );
}

export function ChoiceInput(props: Common & { value: string; choices: readonly (string | [string, string])[]; onInput(value: string): void }) {
  const id = useMemo(fieldId, []);
  return (
    <Field id={id} label={props.label} hint={props.hint}>
      <select id={id} value={props.value} onChange={(e) => props.onInput(e.currentTarget.value)}>
        {props.choices.map((c) => {
          const [value, text] = typeof c === 'string' ? [c, c] : c;
          return <option key={value} value={value}>{text}</option>;
        })}
      </select>
    </Field>
  );
}

export function JsonInput(props: Common & { value: string; onInput(value: string): void; rows?: number }) {
  const id = useMemo(fieldId, []);
  return (
    <Field id={id} label={props.label} hint={props.hint}>
      <textarea id={id} rows={props.rows ?? 5} spellcheck={false} value={props.value} onInput={(e) => props.onInput(e.currentTarget.value)} />
    </Field>
  );
}

/** JSON text as shown in a JsonInput. */
export function jsonText(value: unknown): string {
  return value === undefined ? '' : JSON.stringify(value, null, 2);
}

/** The value of a JsonInput; `undefined` when empty; an Error naming the field when not JSON. */
export function parseJson(label: string, text: string): unknown {
  if (!text.trim()) return undefined;
  try {
    return JSON.parse(text);
  } catch (e) {
    throw new Error(`${label}: not valid JSON (${(e as Error).message})`);
  }
}

/** A comma-separated list as an array (empty entries dropped). */
export function listOf(text: string): string[] {
  return text.split(',').map((s) => s.trim()).filter(Boolean);
}

/** A number input's text as a number; `undefined` when empty. */
export function numberOf(text: string): number | undefined {
  return text.trim() === '' ? undefined : Number(text);
}
