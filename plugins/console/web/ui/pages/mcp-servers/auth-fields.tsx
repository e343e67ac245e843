/**
 * The fields of an MCP server's `auth`, per type. Secrets (token, client secret, header values)
 * are write-only: an empty secret on edit sends back the stored mask, which keeps the stored value.
 */
import { ChoiceInput, JsonInput, TextInput, jsonText, parseJson } from '../../parts/inputs';

export interface McpAuth {
  type: 'none' | 'bearer' | 'headers' | 'oauth2_client_credentials' | 'user_bearer';
  token?: string;
  headers?: Record<string, string>;
  token_url?: string;
  client_id?: string;
  client_secret?: string;
  scope?: string;
  audience?: string;
  token_endpoint_auth_method?: string;
}

export const AUTH_TYPES: [string, string][] = [
  ['none', 'none'], ['bearer', 'bearer token'], ['headers', 'headers'],
  ['oauth2_client_credentials', 'OAuth 2 client credentials'], ['user_bearer', "the caller's own bearer token"],
];

export interface AuthDraft {
  type: string;
  token: string;
  headers: string;
  token_url: string;
  client_id: string;
  client_secret: string;
  scope: string;
  audience: string;
  method: string;
}

export function draftOf(auth: McpAuth | undefined): AuthDraft {
  return {
    type: auth?.type ?? 'none', token: '', headers: jsonText(auth?.headers ?? {}), token_url: auth?.token_url ?? '',
    client_id: auth?.client_id ?? '', client_secret: '', scope: auth?.scope ?? '', audience: auth?.audience ?? '',
    method: auth?.token_endpoint_auth_method ?? 'client_secret_basic',
  };
}

/** The `auth` body: only the chosen type's fields; a secret left empty keeps the stored one. */
export function authBody(d: AuthDraft, stored: McpAuth | undefined): Record<string, unknown> {
  const same = stored?.type === d.type;
  const secret = (given: string, shown: string | undefined) => given || (same ? shown : undefined);
  const opt = (v: string) => v || undefined;
  switch (d.type) {
    case 'bearer': return { type: d.type, token: secret(d.token, stored?.token) };
    case 'headers': return { type: d.type, headers: parseJson('Headers', d.headers) };
    case 'oauth2_client_credentials': return {
      type: d.type, token_url: opt(d.token_url), client_id: opt(d.client_id), client_secret: secret(d.client_secret, stored?.client_secret),
      scope: opt(d.scope), audience: opt(d.audience), token_endpoint_auth_method: d.method,
    };
    default: return { type: d.type };
  }
}

export function AuthFields(props: { draft: AuthDraft; stored?: McpAuth; set(d: AuthDraft): void }) {
  const d = props.draft;
  const field = (name: keyof AuthDraft) => (value: string) => props.set({ ...d, [name]: value });
  const keepHint = (shown: string | undefined) => (props.stored?.type === d.type && shown ? `Stored: ${shown}. Leave empty to keep it.` : undefined);
  return (
    <>
      <ChoiceInput label="Authentication" value={d.type} onInput={field('type')} choices={AUTH_TYPES} />
      {d.type === 'bearer' && <TextInput label="Token" type="password" value={d.token} onInput={field('token')} hint={keepHint(props.stored?.token)} />}
      {d.type === 'headers' && (
        <JsonInput label="Headers" value={d.headers} onInput={field('headers')} rows={3}
          hint='{"x-api-key": "…"}; values show masked (sent back unchanged, they are kept).' />
      )}
      {d.type === 'oauth2_client_credentials' && (
        <>
          <TextInput label="Token URL" type="url" value={d.token_url} onInput={field('token_url')} />
          <TextInput label="Client ID" value={d.client_id} onInput={field('client_id')} />
          <TextInput label="Client secret" type="password" value={d.client_secret} onInput={field('client_secret')} hint={keepHint(props.stored?.client_secret)} />
          <TextInput label="Scope" value={d.scope} onInput={field('scope')} />
          <TextInput label="Audience" value={d.audience} onInput={field('audience')} />
          <ChoiceInput label="Client authentication" value={d.method} onInput={field('method')} choices={['client_secret_basic', 'client_secret_post']} />
        </>
      )}
    </>
  );
}
