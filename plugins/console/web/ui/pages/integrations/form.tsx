/**
 * Create or edit an integration. The key is write-only: the form never holds the stored one, and an
 * empty key on edit keeps it. Secret configuration fields come back masked; sending a mask back
 * unchanged keeps the stored secret (the route's GET → PUT round trip).
 */
import { useState } from 'preact/hooks';
import { useConsole } from '../../context';
import { JsonInput, TextInput, jsonText, listOf, parseJson } from '../../parts/inputs';
import { FormButtons, useSubmit, type FormProps } from '../../parts/record-admin';

export interface Integration {
  id: string;
  slug: string;
  name: string;
  description: string | null;
  provider: string;
  /** The mask of the key, or null. */
  key: string | null;
  configurations: Record<string, unknown>;
  allow_all_workspaces: boolean;
  allowed_workspaces: string[];
  models: unknown[];
  secret_mappings: unknown[];
  last_updated_at: string;
}

export function IntegrationForm({ record, done }: FormProps<Integration>) {
  const { api } = useConsole();
  const [name, setName] = useState(record?.name ?? '');
  const [slug, setSlug] = useState(record?.slug ?? '');
  const [provider, setProvider] = useState(record?.provider ?? 'openai');
  const [description, setDescription] = useState(record?.description ?? '');
  const [key, setKey] = useState('');
  const [configurations, setConfigurations] = useState(record ? jsonText(record.configurations) : '{}');
  const [mappings, setMappings] = useState(record ? jsonText(record.secret_mappings) : '[]');
  const [models, setModels] = useState(record ? jsonText(record.models) : '[]');
  const shownWorkspaces = record && !record.allow_all_workspaces ? record.allowed_workspaces.join(', ') : '';
  const [workspaces, setWorkspaces] = useState(shownWorkspaces);
  const { error, busy, submit } = useSubmit(done);

  const body = (): Record<string, unknown> => {
    const out: Record<string, unknown> = { name: name || undefined, slug, provider, description: description || undefined };
    if (key) out['key'] = key;
    out['configurations'] = parseJson('Configurations', configurations);
    out['secret_mappings'] = parseJson('Secret mappings', mappings);
    out['models'] = parseJson('Models', models);
    if (workspaces !== shownWorkspaces) {
      const list = listOf(workspaces);
      if (list.length > 0) out['allowed_workspaces'] = list;
      else out['allow_all_workspaces'] = true;
    }
    return out;
  };
  const send = () => (record ? api.put(`/v1/integrations/${encodeURIComponent(record.id)}`, body()) : api.post('/v1/integrations', body()));

  return (
    <form onSubmit={submit(send)}>
      <TextInput label="Name" value={name} onInput={setName} />
      <TextInput label="Slug" value={slug} onInput={setSlug} required hint="What configs name it by: lower-case letters, digits, _ or -." />
      <TextInput label="Provider" value={provider} onInput={setProvider} required hint="A provider the gateway has loaded: openai, anthropic, azure-openai, bedrock …" />
      <TextInput label="Description" value={description} onInput={setDescription} />
      <TextInput label="API key" type="password" value={key} onInput={setKey}
        hint={record ? `Stored: ${record.key ?? 'none'}. Leave empty to keep it.` : 'Sealed at rest; never shown again.'} />
      <JsonInput label="Configurations" value={configurations} onInput={setConfigurations}
        hint='Provider settings, e.g. {"custom_host": "https://…"}; secret fields show masked (sent back unchanged, they are kept).' />
      <JsonInput label="Secret mappings" value={mappings} onInput={setMappings}
        hint='Fill fields from secret references: [{"target_field": "key", "secret_reference": "openai-prod"}].' />
      <JsonInput label="Models" value={models} onInput={setModels} hint='[{"slug": "gpt-4o-mini", "enabled": true}]; empty: the provider defaults.' />
      <TextInput label="Allowed workspaces" value={workspaces} onInput={setWorkspaces} hint="Comma-separated ids or slugs; empty: every workspace." />
      <FormButtons busy={busy} error={error} editing={record !== undefined} done={done} />
    </form>
  );
}
