import type { Principal } from '../../core/index.js';
import type { Scope } from './ports.js';

/** The caller's scope; without an auth plugin every record lives in the '' organisation. */
export function scopeOf(principal: Principal | undefined): Scope {
  return { organisationId: principal?.organisationId ?? '', workspaceId: principal?.workspaceId ?? '' };
}

export function canSee(scope: Scope, record: { organisation_id: string; workspace_id: string }): boolean {
  return record.organisation_id === scope.organisationId && (scope.workspaceId === '' || record.workspace_id === scope.workspaceId);
}
