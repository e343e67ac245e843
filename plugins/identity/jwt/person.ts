/**
 * A JWT caller as a person of its organisation (created on first use as a `member`), acting:
 *   - as an organisation owner or admin: organisation-wide, every scope;
 *   - otherwise in one workspace, chosen as for every person (identity/common/workspace-choice.ts),
 *     with the token's workspace claim before the only-workspace rule (the person joins it as a
 *     `member` if not one yet: the organisation trusts its identity provider for it).
 * A deactivated person (SCIM `active: false`) is refused with 401 person_deactivated.
 * Who a person is and where they belong is remembered for `ttlMs`, so a steady caller costs no
 * store reads; role changes and deactivations show within that time (refusals are not remembered).
 */
import { BoundedMap, Errors, GatewayError, type Principal } from '../../../core/index.js';
import type { MappedClaims } from './claims.js';
import type { Directory } from '../../admin/workspaces/contract.js';
import { chooseWorkspace } from '../common/workspace-choice.js';

const ORGANISATION_ROLES: ReadonlySet<string> = new Set(['owner', 'admin']);

interface Placement {
  userId: string;
  role: string;
  /** Unset for organisation owners and admins. */
  workspaceId?: string;
  until: number;
}

export class PersonPrincipals {
  readonly #placements: BoundedMap<string, Placement>;

  constructor(
    private readonly directory: () => Directory,
    private readonly memberScopes: readonly string[],
    private readonly ttlMs: number,
    maxEntries: number,
  ) {
    this.#placements = new BoundedMap(maxEntries);
  }

  async principal(organisationId: string, mapped: MappedClaims, workspaceHeader: string | undefined): Promise<Principal> {
    const cacheKey = `${organisationId}\n${mapped.email.toLowerCase()}\n${workspaceHeader ?? ''}\n${mapped.workspace ?? ''}`;
    const now = Date.now();
    let placement = this.#placements.get(cacheKey);
    if (!placement || placement.until <= now) {
      placement = { ...(await this.#place(organisationId, mapped, workspaceHeader)), until: now + this.ttlMs };
      if (this.ttlMs > 0) this.#placements.set(cacheKey, placement);
    }
    const base = { keyId: `jwt:${mapped.identity.subject}`, userId: placement.userId, organisationId, via: 'jwt', jwt: mapped.identity };
    if (placement.workspaceId === undefined) return { ...base, type: 'person', role: placement.role, scopes: ['*'] };
    return { ...base, type: 'workspace-user', workspaceId: placement.workspaceId, role: placement.role, scopes: this.memberScopes };
  }

  async #place(organisationId: string, mapped: MappedClaims, header: string | undefined): Promise<Omit<Placement, 'until'>> {
    const directory = this.directory();
    const person = await directory.findOrCreatePerson(organisationId, { email: mapped.email, ...(mapped.name ? { name: mapped.name } : {}) });
    if (!person.active) {
      throw new GatewayError({ status: 401, message: `bearer JWT refused: ${person.email} is deactivated in the organisation`, code: 'person_deactivated' });
    }
    const role = person.role.toLowerCase();
    if (ORGANISATION_ROLES.has(role)) return { userId: person.id, role };
    const choice = await chooseWorkspace(directory, {
      organisationId,
      person,
      header,
      // The organisation trusts its identity provider to place the person: they join as a member.
      otherwise: mapped.workspace === undefined ? undefined : async () => {
        const workspace = await directory.workspace(mapped.workspace!, organisationId);
        if (!workspace) throw Errors.forbidden(`the token's workspace claim names no workspace of the organisation ("${mapped.workspace}")`);
        if (workspace.status !== 'active') throw Errors.forbidden(`workspace ${workspace.id} is ${workspace.status}`);
        const joined = await directory.joinWorkspace(workspace.id, person.id, 'member');
        return { workspaceId: workspace.id, role: joined.role };
      },
      noWorkspaceHint: 'an admin adds them to one (or the organisation maps a workspace claim)',
    });
    return { userId: person.id, ...choice };
  }
}
