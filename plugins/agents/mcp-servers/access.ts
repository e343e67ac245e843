/**
 * Who may do what with MCP servers. Organisation owners and admins may do everything (core authz);
 * other keys need the scope `mcp_servers.<action>` (create, list, read, update, delete).
 *
 * A workspace key sees the servers of its workspace and the organisation's servers allowed there;
 * it writes only its own workspace's servers. A workspace `member` never writes; a `manager` writes
 * while the setting `managersWriteMcpServers` allows it, and sets or changes a server's credentials
 * (auth secrets, secret mappings, or the URL they are sent to) only while `managersWriteWsMcpIntegrations`
 * allows it (both organisation settings with a workspace override, default on).
 */
import { Errors, requireScope, type PluginServices, type Principal, type RequestContext } from '../../../core/index.js';
import { DirectoryService, OrgSettingsService, type Directory, type OrgSettings } from '../../admin/workspaces/contract.js';
import type { McpServer } from './record.js';

/** The workspaces plugin's services, looked up on use (it may be applied after this one, or not at all). */
export class ControlPlaneServices {
  constructor(private readonly services: PluginServices) {}

  get settings(): OrgSettings | undefined {
    return this.services.find(OrgSettingsService);
  }

  get directory(): Directory | undefined {
    return this.services.find(DirectoryService);
  }
}

export type WriteAction = 'create' | 'update' | 'delete';

export function organisationOf(principal: Principal): string {
  return principal.organisationId ?? 'default';
}

/** Whether a server may be used in `workspaceId` (an organisation-level caller: anywhere in its organisation). */
export function allowedIn(server: McpServer, workspaceId: string | undefined): boolean {
  if (workspaceId === undefined) return true;
  if (server.workspaceId !== undefined) return server.workspaceId === workspaceId;
  return server.allowAllWorkspaces || server.allowedSet.has(workspaceId);
}

/** Whether the caller may see and use the server (routes answer 404 otherwise, revealing nothing). */
export function canSee(principal: Principal, server: McpServer): boolean {
  return server.organisationId === organisationOf(principal) && allowedIn(server, principal.workspaceId);
}

function roleOf(principal: Principal): string | undefined {
  return typeof principal.role === 'string' ? principal.role.toLowerCase() : undefined;
}

async function settingOff(principal: Principal, name: string, services: ControlPlaneServices): Promise<boolean> {
  const settings = await services.settings?.get(principal.workspaceId, principal.organisationId);
  return settings?.[name as keyof typeof settings] === false;
}

/** The caller, when it may write MCP servers at all (scope, role, setting). */
export async function authorizeWrite(ctx: RequestContext, action: WriteAction, services: ControlPlaneServices): Promise<Principal> {
  const principal = requireScope(ctx, `mcp_servers.${action}`);
  if (principal.workspaceId === undefined) return principal;
  const role = roleOf(principal);
  if (role === 'member') throw Errors.forbidden('workspace members cannot write MCP servers');
  if (role === 'manager' && await settingOff(principal, 'managersWriteMcpServers', services)) {
    throw Errors.forbidden('workspace managers cannot write MCP servers (setting managersWriteMcpServers is off)');
  }
  return principal;
}

/** 403 when a workspace manager may not set or change credentials (setting managersWriteWsMcpIntegrations). */
export async function authorizeCredentials(principal: Principal, services: ControlPlaneServices, what: string): Promise<void> {
  if (principal.workspaceId === undefined || roleOf(principal) !== 'manager') return;
  if (await settingOff(principal, 'managersWriteWsMcpIntegrations', services)) {
    throw Errors.forbidden(`workspace managers cannot set or change an MCP server's ${what} (setting managersWriteWsMcpIntegrations is off)`);
  }
}

export function requireRead(ctx: RequestContext, action: 'list' | 'read'): Principal {
  return requireScope(ctx, `mcp_servers.${action}`);
}

/** A workspace key writes only its own workspace's servers. */
export function requireOwnWorkspace(principal: Principal, server: McpServer): void {
  const ws = principal.workspaceId;
  if (ws === undefined || server.workspaceId === ws) return;
  throw Errors.forbidden(`MCP server "${server.slug}" does not belong to workspace ${ws}: only an organisation key may change it`);
}
