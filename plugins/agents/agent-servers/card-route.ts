/**
 * GET /v1/agent-servers/:id/agent-card: the agent's card with its JSON-RPC endpoint rewritten to
 * the gateway's own for that agent. Open to callers who may invoke agents (`agents.invoke`) or read
 * agent servers (`agent_servers.read`); a server they may not use answers 404.
 */
import { Errors, hasScope, json, principalOf, type Router } from '../../../core/index.js';
import { INVOKE_SCOPE } from './access.js';
import { agentEndpoint, publicBase } from './base-url.js';
import { rewriteCard } from './card-shape.js';
import type { AgentCards } from './cards.js';
import type { AgentServerCatalogue } from './catalogue.js';
import { visibleServer } from './routes.js';
import { requestedVersion } from './versions.js';

export interface CardRouteDeps {
  catalogue: AgentServerCatalogue;
  cards: AgentCards;
  publicBaseUrl: string | undefined;
}

export function registerCardRoute(routes: Router, deps: CardRouteDeps): void {
  routes.add({
    method: 'GET', path: '/v1/agent-servers/:id/agent-card',
    handler: async (ctx) => {
      const principal = principalOf(ctx);
      if (!hasScope(principal, INVOKE_SCOPE) && !hasScope(principal, 'agent_servers.read')) {
        throw Errors.forbidden(`the API key lacks the scope ${INVOKE_SCOPE} (or agent_servers.read)`);
      }
      const server = visibleServer(ctx, principal, deps);
      const version = requestedVersion(ctx.request);
      const endpoint = agentEndpoint(publicBase(ctx.request, deps.publicBaseUrl), server.id);
      const card = await deps.cards.get(server, version);
      return json(200, rewriteCard(card, endpoint), { vary: 'A2A-Version' });
    },
  });
}
