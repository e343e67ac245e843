/**
 * Create or edit a guardrail: its checks and actions as JSON (the gateway validates each check's
 * parameters against the loaded check and names the offending path when it refuses).
 */
import { useState } from 'preact/hooks';
import { useConsole } from '../../context';
import { JsonInput, TextInput, jsonText, parseJson } from '../../parts/inputs';
import { FormButtons, useSubmit, type FormProps } from '../../parts/record-admin';

export interface Guardrail {
  id: string;
  slug: string;
  name: string;
  workspace_id: string | null;
  checks: { id: string; parameters: Record<string, unknown> }[];
  actions: { deny?: boolean; async?: boolean; on_fail?: unknown; on_success?: unknown };
  phases: string[];
  last_updated_at: string;
}

const EXAMPLE_CHECKS = [{ id: 'default.wordCount', parameters: { maxWords: 200 } }];

export function GuardrailForm({ record, done }: FormProps<Guardrail>) {
  const { api } = useConsole();
  const [name, setName] = useState(record?.name ?? '');
  const [slug, setSlug] = useState(record?.slug ?? '');
  const [workspace, setWorkspace] = useState('');
  const [checks, setChecks] = useState(jsonText(record?.checks ?? EXAMPLE_CHECKS));
  const [actions, setActions] = useState(jsonText(record?.actions ?? { deny: true }));
  const { error, busy, submit } = useSubmit(done);

  const body = (): Record<string, unknown> => ({
    name,
    slug: slug || undefined,
    workspace_id: record || !workspace ? undefined : workspace,
    checks: parseJson('Checks', checks),
    actions: parseJson('Actions', actions),
  });
  const send = () => (record ? api.put(`/v1/guardrails/${encodeURIComponent(record.id)}`, body()) : api.post('/v1/guardrails', body()));

  return (
    <form onSubmit={submit(send)}>
      <TextInput label="Name" value={name} onInput={setName} required />
      <TextInput label="Slug" value={slug} onInput={setSlug} hint="How configs name it; empty: one is made up." />
      {!record && <TextInput label="Workspace" value={workspace} onInput={setWorkspace} hint="Id or slug; empty: the whole organisation (a workspace key: its own)." />}
      <JsonInput label="Checks" value={checks} onInput={setChecks} rows={8}
        hint='A list of {"id": "<check id>", "parameters": {…}}: default.regexMatch, default.wordCount, default.pii …' />
      <JsonInput label="Actions" value={actions} onInput={setActions} rows={4}
        hint='{"deny": true} refuses a failing request (446); also "async", "on_fail", "on_success" ({"feedback": {"value", "weight"}}).' />
      <FormButtons busy={busy} error={error} editing={record !== undefined} done={done} />
    </form>
  );
}
