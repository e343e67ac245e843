/** MCP servers: the tool servers agents reach through the gateway (/v1/mcp-servers). */
import { useConsole } from '../../context';
import { RecordAdmin } from '../../parts/record-admin';
import { timeText } from '../../parts/list-page';
import { can } from '../../session';
import { McpServerForm, type McpServer } from './form';

export function McpServers() {
  const { me } = useConsole();
  return (
    <section aria-labelledby="mcp-servers-title">
      <h1 id="mcp-servers-title">MCP servers</h1>
      <p class="muted">Upstream credentials are sealed at rest and only ever shown masked.</p>
      <RecordAdmin<McpServer>
        noun="MCP server"
        path="/v1/mcp-servers"
        idOf={(s) => s.id}
        nameOf={(s) => s.slug}
        form={McpServerForm}
        can={{ create: can(me, 'mcp_servers.create'), update: can(me, 'mcp_servers.update'), delete: can(me, 'mcp_servers.delete') }}
        columns={[
          { label: 'Name', value: (s) => s.name },
          { label: 'Slug', value: (s) => s.slug },
          { label: 'URL', value: (s) => s.url },
          { label: 'Auth', value: (s) => s.auth.type },
          { label: 'Tools', value: (s) => toolsText(s) },
          { label: 'Updated', value: (s) => timeText(s.last_updated_at) },
        ]}
      />
    </section>
  );
}

function toolsText(s: McpServer): string {
  const allowed = s.allowed_tools === null ? 'all' : s.allowed_tools.join(', ') || 'none';
  return s.denied_tools.length > 0 ? `${allowed} (not ${s.denied_tools.join(', ')})` : allowed;
}
