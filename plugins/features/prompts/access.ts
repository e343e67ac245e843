/**
 * Who may read, render and write prompts (spec §2.3 v1.10.0, issue 20 item 4):
 *   - organisation owners and admins, and workspace admins: always;
 *   - people (principal type `workspace-user`: their keys, sessions and JWT callers) with the role
 *     `manager` or `member`: as the settings `managersViewPrompts` / `managersWritePrompts` /
 *     `membersViewPrompts` / `membersWritePrompts` of their workspace allow (organisation value,
 *     workspace override on top; defaults: members view only, managers view and write). A person's
 *     key scopes neither widen nor narrow this: the role and the settings decide;
 *   - every other key (organisation and workspace service keys): the scope `prompts.read`,
 *     `prompts.render` or `prompts.write`.
 * Read is GET, render is the render and completions routes (a person needs the view setting for
 * both), write is PUT, POST and DELETE. Settings come from admin.workspaces' OrgSettings service;
 * without it (a gateway without the control plane) the defaults apply.
 */
import {
  Errors, isOrganisationAdmin, principalOf, requireScope, workspaceRoleOf,
  type PluginServices, type Principal, type RequestContext,
} from '../../../core/index.js';
import { OrgSettingsService, type OrgSettings } from '../../admin/workspaces/contract.js';

export type PromptAction = 'read' | 'render' | 'write';

const SCOPES: Readonly<Record<PromptAction, string>> = {
  read: 'prompts.read',
  render: 'prompts.render',
  write: 'prompts.write',
};

type Setting = 'membersViewPrompts' | 'membersWritePrompts' | 'managersViewPrompts' | 'managersWritePrompts';

const SETTINGS: Readonly<Record<'manager' | 'member', Readonly<Record<'view' | 'write', Setting>>>> = {
  manager: { view: 'managersViewPrompts', write: 'managersWritePrompts' },
  member: { view: 'membersViewPrompts', write: 'membersWritePrompts' },
};

/** Spec §2.3 v1.10.0: members view only; managers view and write. */
const DEFAULTS: Readonly<Record<Setting, boolean>> = {
  membersViewPrompts: true,
  membersWritePrompts: false,
  managersViewPrompts: true,
  managersWritePrompts: true,
};

export class PromptAccess {
  #settings: OrgSettings | undefined | null = null;

  constructor(private readonly services: PluginServices) {}

  /** The caller when it may do `action` on prompts; else a 403 naming the setting or the scope. */
  async authorize(ctx: RequestContext, action: PromptAction): Promise<Principal> {
    const principal = principalOf(ctx);
    if (isOrganisationAdmin(principal)) return principal;
    const workspaceId = principal.workspaceId;
    if (principal.type !== 'workspace-user' || workspaceId === undefined) return requireScope(ctx, SCOPES[action]);
    const role = workspaceRoleOf(principal, workspaceId) ?? 'member';
    if (role === 'admin') return principal;
    const setting = SETTINGS[role][action === 'write' ? 'write' : 'view'];
    if (!(await this.#allowed(setting, workspaceId, principal.organisationId))) {
      const verb = action === 'write' ? 'write' : action === 'render' ? 'render' : 'view';
      throw Errors.forbidden(`workspace ${role}s may not ${verb} prompts (setting ${setting} is off for workspace ${workspaceId})`);
    }
    return principal;
  }

  async #allowed(setting: Setting, workspaceId: string, organisationId: string | undefined): Promise<boolean> {
    const settings = await this.#service()?.get(workspaceId, organisationId);
    const value = (settings as Readonly<Record<string, unknown>> | undefined)?.[setting];
    return typeof value === 'boolean' ? value : DEFAULTS[setting];
  }

  /** Looked up on first use: admin.workspaces may be applied after this plugin, or not at all. */
  #service(): OrgSettings | undefined {
    if (this.#settings === null) {
      this.#settings = this.services.find(OrgSettingsService);
    }
    return this.#settings;
  }
}
