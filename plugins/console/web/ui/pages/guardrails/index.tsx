/** Guardrails: stored lists of checks with their actions, named from configs by id or slug (/v1/guardrails). */
import { useConsole } from '../../context';
import { RecordAdmin } from '../../parts/record-admin';
import { timeText } from '../../parts/list-page';
import { can } from '../../session';
import { GuardrailForm, type Guardrail } from './form';

export function Guardrails() {
  const { me } = useConsole();
  return (
    <section aria-labelledby="guardrails-title">
      <h1 id="guardrails-title">Guardrails</h1>
      <p class="muted">Checks run on requests and answers when a config names the guardrail in <code>input_guardrails</code> or <code>output_guardrails</code>.</p>
      <RecordAdmin<Guardrail>
        noun="guardrail"
        path="/v1/guardrails"
        idOf={(g) => g.id}
        nameOf={(g) => g.slug}
        form={GuardrailForm}
        can={{ create: can(me, 'guardrails.create'), update: can(me, 'guardrails.update'), delete: can(me, 'guardrails.delete') }}
        columns={[
          { label: 'Name', value: (g) => g.name },
          { label: 'Slug', value: (g) => g.slug },
          { label: 'Checks', value: (g) => g.checks.map((c) => c.id).join(', ') },
          { label: 'Phases', value: (g) => g.phases.join(', ') },
          { label: 'Deny', value: (g) => (g.actions.deny ? 'yes' : 'no') },
          { label: 'Workspace', value: (g) => g.workspace_id ?? 'organisation' },
          { label: 'Updated', value: (g) => timeText(g.last_updated_at) },
        ]}
      />
    </section>
  );
}
