/** Integrations: provider credentials the organisation's requests use by slug (/v1/integrations). */
import { useConsole } from '../../context';
import { RecordAdmin } from '../../parts/record-admin';
import { timeText } from '../../parts/list-page';
import { can } from '../../session';
import { IntegrationForm, type Integration } from './form';

export function Integrations() {
  const { me } = useConsole();
  return (
    <section aria-labelledby="integrations-title">
      <h1 id="integrations-title">Integrations</h1>
      <p class="muted">Provider keys and settings kept by the gateway, sealed at rest; keys are only ever shown masked.</p>
      <RecordAdmin<Integration>
        noun="integration"
        path="/v1/integrations"
        idOf={(i) => i.id}
        nameOf={(i) => i.slug}
        form={IntegrationForm}
        can={{ create: can(me, 'integrations.create'), update: can(me, 'integrations.update'), delete: can(me, 'integrations.delete') }}
        columns={[
          { label: 'Name', value: (i) => i.name },
          { label: 'Slug', value: (i) => i.slug },
          { label: 'Provider', value: (i) => i.provider },
          { label: 'Key', value: (i) => i.key ?? (i.secret_mappings.length > 0 ? 'secret reference' : 'none') },
          { label: 'Workspaces', value: (i) => (i.allow_all_workspaces ? 'all' : i.allowed_workspaces.join(', ')) },
          { label: 'Updated', value: (i) => timeText(i.last_updated_at) },
        ]}
      />
    </section>
  );
}
