/**
 * agents.mcp-gateway: `/v1/mcp/:server` (id or slug), a Streamable HTTP MCP endpoint in front of
 * the servers of the registry (agents.mcp-servers, read through its contract), and the callers'
 * connections with them (`/v1/mcp-servers/:id/connections`).
 *
 * Clients authenticate to the gateway (`x-gw-api-key`, or `Authorization: Bearer <gateway key>`,
 * which MCP clients send); the gateway authenticates upstream with the server's own credentials,
 * so clients never see them and upstreams never see gateway keys. Tool lists are filtered, other
 * tools refused, guardrails run on arguments and results, rate limits and logs see each tool call
 * (endpoint `mcp`). Sessions live in the record store: any instance of a fleet serves any session.
 * See endpoint.ts for the protocol, docs/mcp.md for what clients see.
 */
import {
  GuardrailEvaluatorService, Services, Type,
  type EndpointDef, type Plugin, type PluginApi, type Static,
} from '../../../core/index.js';
import { McpServersService } from '../mcp-servers/contract.js';
import { connectionRoutes } from './connections.js';
import { mcpHandler } from './endpoint.js';
import { MCP_ENDPOINT, ToolGuard } from './guard.js';
import { McpRepo } from './repo.js';
import { Sessions } from './sessions.js';
import { Upstream } from './upstream.js';

const Options = Type.Object({
  /** MCP protocol versions spoken, oldest first; a client asking for another is offered the newest. */
  protocolVersions: Type.Array(Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}$' }), { minItems: 1, uniqueItems: true, default: ['2025-03-26', '2025-06-18'] }),
  /** Largest client message (bytes); larger ones answer 413. The gateway's body limit applies first. */
  maxBodyBytes: Type.Integer({ minimum: 1024, default: 1024 * 1024 }),
  /** Largest JSON answer read from a server (it is parsed whole to be checked); streams are not bounded. */
  maxUpstreamJsonBytes: Type.Integer({ minimum: 1024, default: 16 * 1024 * 1024 }),
}, { additionalProperties: false });

type Options = Static<typeof Options>;

/** Marks the route for limits, logs and metrics (`endpoint_type` `mcp`); the handler is this plugin's own. */
const MCP_ENDPOINT_DEF: EndpointDef = Object.freeze({ id: MCP_ENDPOINT, validate: () => [], streamable: true });

export default class McpGatewayPlugin implements Plugin<Options> {
  static readonly manifest = {
    id: 'agents.mcp-gateway',
    description: 'MCP endpoint /v1/mcp/:server (Streamable HTTP) in front of registered MCP servers, and their connections',
    requires: [Services.Records, Services.SecretBox, McpServersService],
    dependsOn: ['security.secret-box'],
    options: Options,
  };

  async apply(api: PluginApi<Options>): Promise<void> {
    const { services, options } = api;
    const repo = new McpRepo(services.get(Services.Records));
    await repo.init();
    const sessions = new Sessions(repo, services.get(Services.SecretBox));
    const servers = () => services.get(McpServersService);
    const upstream = new Upstream(services.get(Services.Transport), servers);
    // The runner may be applied after this plugin: looked up on use.
    const guard = new ToolGuard(() => services.find(GuardrailEvaluatorService));
    const handler = mcpHandler({
      servers, sessions, upstream, guard, kernel: services.get(Services.Kernel),
      versions: [...options.protocolVersions].sort(), maxBodyBytes: options.maxBodyBytes, maxJsonBytes: options.maxUpstreamJsonBytes,
    });
    const path = '/v1/mcp/:server';
    api.registries.routes.add({ method: 'POST', path, body: 'raw', bearerKey: true, endpoint: MCP_ENDPOINT_DEF, handler });
    api.registries.routes.add({ method: 'GET', path, body: 'none', bearerKey: true, endpoint: MCP_ENDPOINT_DEF, handler });
    api.registries.routes.add({ method: 'DELETE', path, body: 'none', bearerKey: true, endpoint: MCP_ENDPOINT_DEF, handler });
    for (const route of connectionRoutes({ servers, repo, sessions, upstream })) api.registries.routes.add(route);
  }
}
