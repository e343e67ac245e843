/** Create or edit an MCP server: where it is, how the gateway authenticates to it, which tools it offers. */
import { useState } from 'preact/hooks';
import { useConsole } from '../../context';
import { TextInput, listOf } from '../../parts/inputs';
import { FormButtons, useSubmit, type FormProps } from '../../parts/record-admin';
import { AuthFields, authBody, draftOf, type McpAuth } from './auth-fields';

export interface McpServer {
  id: string;
  slug: string;
  name: string;
  description: string | null;
  url: string;
  auth: McpAuth;
  allowed_tools: string[] | null;
  denied_tools: string[];
  last_updated_at: string;
}

export function McpServerForm({ record, done }: FormProps<McpServer>) {
  const { api } = useConsole();
  const [name, setName] = useState(record?.name ?? '');
  const [slug, setSlug] = useState(record?.slug ?? '');
  const [url, setUrl] = useState(record?.url ?? '');
  const [description, setDescription] = useState(record?.description ?? '');
  const [auth, setAuth] = useState(draftOf(record?.auth));
  const [allowed, setAllowed] = useState(record?.allowed_tools?.join(', ') ?? '');
  const [denied, setDenied] = useState(record?.denied_tools.join(', ') ?? '');
  const { error, busy, submit } = useSubmit(done);

  const body = () => ({
    name: name || undefined,
    slug,
    url,
    description: description || (record ? null : undefined),
    auth: authBody(auth, record?.auth),
    allowed_tools: allowed.trim() ? listOf(allowed) : record ? null : undefined,
    denied_tools: listOf(denied),
  });
  const send = () => (record ? api.put(`/v1/mcp-servers/${encodeURIComponent(record.id)}`, body()) : api.post('/v1/mcp-servers', body()));

  return (
    <form onSubmit={submit(send)}>
      <TextInput label="Name" value={name} onInput={setName} />
      <TextInput label="Slug" value={slug} onInput={setSlug} required hint="Lower-case letters, digits, _ or -." />
      <TextInput label="URL" type="url" value={url} onInput={setUrl} required hint="The server's streamable HTTP endpoint." />
      <TextInput label="Description" value={description} onInput={setDescription} />
      <AuthFields draft={auth} stored={record?.auth} set={setAuth} />
      <TextInput label="Allowed tools" value={allowed} onInput={setAllowed} hint="Comma-separated; empty: every tool the server offers." />
      <TextInput label="Denied tools" value={denied} onInput={setDenied} hint="Comma-separated; never offered." />
      <FormButtons busy={busy} error={error} editing={record !== undefined} done={done} />
    </form>
  );
}
