/**
 * The config editor: a name and the config as JSON. JSON that does not parse is caught here; a
 * config the gateway refuses shows the gateway's own message (it names the field and the rule).
 * Saving an existing config (PUT) makes a new version.
 */
import { useMemo, useState } from 'preact/hooks';
import { useConsole } from '../../context';
import { Field, fieldId } from '../../parts/field';
import type { StoredConfig } from './records';

const STARTER = { strategy: { mode: 'fallback' }, targets: [{ provider: 'openai' }, { provider: 'anthropic' }] };

export function ConfigEditor(props: { config?: StoredConfig; onSaved(config: StoredConfig): void; onCancel(): void }) {
  const { api } = useConsole();
  const ids = useMemo(() => ({ name: fieldId(), slug: fieldId(), config: fieldId() }), []);
  const before = props.config;
  const [name, setName] = useState(before?.name ?? '');
  const [slug, setSlug] = useState('');
  const [text, setText] = useState(JSON.stringify(before?.config ?? STARTER, null, 2));
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | undefined>();

  const submit = async (e: Event) => {
    e.preventDefault();
    setError(undefined);
    const config = parseConfig(text);
    if (typeof config === 'string') return setError(config);
    const body: Record<string, unknown> = { name: name.trim(), config };
    if (!before && slug.trim()) body['slug'] = slug.trim();
    setBusy(true);
    try {
      const path = before ? `/v1/configs/${encodeURIComponent(before.id)}` : '/v1/configs';
      props.onSaved(before ? await api.put<StoredConfig>(path, body) : await api.post<StoredConfig>(path, body));
    } catch (err) {
      setError((err as Error).message);
      setBusy(false);
    }
  };

  return (
    <form onSubmit={submit} class="config-editor">
      <Field id={ids.name} label="Name">
        <input id={ids.name} value={name} onInput={(e) => setName(e.currentTarget.value)} required maxLength={255} autoFocus />
      </Field>
      {!before && (
        <Field id={ids.slug} label="Slug" hint="Optional: what requests send as x-gw-config; made by the gateway when empty.">
          <input id={ids.slug} value={slug} onInput={(e) => setSlug(e.currentTarget.value)} maxLength={63} />
        </Field>
      )}
      <Field id={ids.config} label="Config" hint={before ? `Saving makes version ${(before.latest_version ?? before.version) + 1}.` : 'JSON, as in an x-gw-config header.'}>
        <textarea id={ids.config} rows={18} spellcheck={false} value={text} onInput={(e) => setText(e.currentTarget.value)} />
      </Field>
      {error && <p role="alert" class="error">{error}</p>}
      <div class="actions">
        <button type="submit" disabled={busy}>Save</button>
        <button type="button" class="secondary" onClick={() => setText(prettyOrSame(text))}>Format JSON</button>
        <button type="button" class="secondary" onClick={props.onCancel}>Cancel</button>
      </div>
    </form>
  );
}

/** The config object, or a message saying why the text is not one. */
export function parseConfig(text: string): Record<string, unknown> | string {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    return `Config is not valid JSON: ${(e as Error).message}`;
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return 'Config must be a JSON object ({ … }).';
  return value as Record<string, unknown>;
}

function prettyOrSame(text: string): string {
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
}
