/**
 * Who "the same caller" is for A2A task ownership: the same organisation and workspace (none for
 * an organisation key), and within them the same person when the principal names a user (any of
 * their keys, sessions or JWTs), else the same API key. Organisation owners and admins are no
 * exception: every caller reaches the agent as the gateway, so the agent cannot tell them apart
 * either, and an admin has no business continuing a colleague's task under their own name.
 */
import type { Principal } from '../../../core/index.js';
import { organisationOf } from './access.js';

export function callerOf(principal: Principal): string {
  const who = principal.userId ? `user:${principal.userId}` : `key:${principal.keyId}`;
  // JSON keeps the parts apart whatever characters they hold.
  return JSON.stringify([organisationOf(principal), principal.workspaceId ?? '', who]);
}
