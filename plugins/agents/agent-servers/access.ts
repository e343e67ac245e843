/**
 * Who may do what with agent servers. Organisation owners and admins may do everything (core
 * authz); other keys need `agent_servers.<action>` (create, list, read, update, delete) to manage
 * them and `agents.invoke` to call them. A workspace key sees the servers of its workspace (owned,
 * or allowed there) and writes only those its workspace owns; a server outside what the caller may
 * see answers like a missing one (404), revealing nothing.
 */
import { Errors, requireScope, type PluginServices, type Principal, type RequestContext } from '../../../core/index.js';
import { DirectoryService, type Directory } from '../../admin/workspaces/contract.js';
import type { AgentServer } from './record.js';

export type Action = 'create' | 'list' | 'read' | 'update' | 'delete';

export const INVOKE_SCOPE = 'agents.invoke';

export function organisationOf(principal: Principal): string {
  return principal.organisationId ?? 'default';
}

export function requireAction(ctx: RequestContext, action: Action): Principal {
  return requireScope(ctx, `agent_servers.${action}`);
}

/** Whether a caller acting in `workspaceId` (undefined: organisation-wide) may use the server. */
export function allowedIn(server: AgentServer, workspaceId: string | undefined): boolean {
  return workspaceId === undefined || server.workspaceId === workspaceId || server.allowAllWorkspaces || server.allowedSet.has(workspaceId);
}

export function canSee(principal: Principal, server: AgentServer): boolean {
  return server.organisationId === organisationOf(principal) && allowedIn(server, principal.workspaceId);
}

/** A workspace key writes only the servers its workspace owns. */
export function requireOwned(principal: Principal, server: AgentServer): void {
  const ws = principal.workspaceId;
  if (ws !== undefined && server.workspaceId !== ws) {
    throw Errors.forbidden(`agent server "${server.slug}" does not belong to workspace ${ws}: only an organisation key may change it`);
  }
}

/** The workspaces plugin's directory, looked up on use (it may be applied later, or not at all). */
export class DirectoryLookup {
  constructor(private readonly services: PluginServices) {}

  get directory(): Directory | undefined {
    return this.services.find(DirectoryService);
  }

  /** A workspace id or slug of the caller's organisation → its id; 400 naming `field` otherwise. */
  async workspaceId(ref: string, principal: Principal, field: string): Promise<string> {
    const directory = this.directory;
    if (!directory) return ref;
    const ws = await directory.workspace(ref, principal.organisationId);
    if (!ws || (principal.organisationId !== undefined && ws.organisation_id !== principal.organisationId)) {
      throw Errors.invalidBody(field, `unknown workspace "${ref}"`);
    }
    return ws.id;
  }
}
