/**
 * The organisation's policy for workspace-user keys (spec §2.3, v1.15): keys without an expiry get
 * `user_api_key_ttl` (seconds); an enforced `user_api_key_rotation_period` is given to keys without a
 * policy, and an explicit different `rotation_period` is rejected on create and update (400, §7).
 * Other key kinds follow their own `rotation_policy` only.
 */
import { Errors, MAX_TTL_SECONDS, type ApiKeyView, type RotationInput, type RotationPeriod } from '../../../core/index.js';
import { futureMs } from './dates.js';
import type { OrgSettings } from '../workspaces/contract.js';
import type { RotationPolicyBody } from './schemas.js';

export interface UserKeyPolicy {
  rotationPeriod?: RotationPeriod;
  ttlSeconds?: number;
}

export async function userKeyPolicy(settings: OrgSettings | undefined, workspaceId: string): Promise<UserKeyPolicy> {
  if (!settings) return {};
  const values = await settings.get(workspaceId);
  const period = values['user_api_key_rotation_period'];
  const ttl = values['user_api_key_ttl'];
  return {
    ...(period === 'weekly' || period === 'monthly' ? { rotationPeriod: period } : {}),
    // Capped: a setting stored before its bound existed must not make keys that cannot be stored.
    ...(typeof ttl === 'number' && ttl > 0 ? { ttlSeconds: Math.min(ttl, MAX_TTL_SECONDS) } : {}),
  };
}

/** When a new key expires: its `expires_at`, else its `ttl` (seconds), else the policy's ttl for workspace-user keys. */
export function expiryFor(body: { expires_at?: string; ttl?: number }, policy: UserKeyPolicy, nowMs: number): number | undefined {
  if (body.expires_at !== undefined) return futureMs(body.expires_at, nowMs, 'expires_at');
  const ttl = body.ttl ?? policy.ttlSeconds;
  return ttl === undefined ? undefined : nowMs + ttl * 1000;
}

/**
 * The rotation a key gets from its request's `rotation_policy`, the enforced period and (on update)
 * the policy it has: fields the request leaves out come from the current policy; a new period
 * restarts the schedule.
 */
export function rotationFor(
  given: RotationPolicyBody | undefined,
  enforced: RotationPeriod | undefined,
  nowMs: number,
  current?: ApiKeyView['rotation_policy'],
): RotationInput | undefined {
  if (enforced && given?.rotation_period !== undefined && given.rotation_period !== enforced) {
    throw Errors.invalidBody('rotation_policy.rotation_period', `must be "${enforced}": the organisation enforces user_api_key_rotation_period on workspace-user keys`);
  }
  if (!given && !enforced) return undefined;
  const period = (given?.rotation_period ?? enforced ?? current?.rotation_period) as RotationPeriod | undefined;
  if (!period) throw Errors.invalidBody('rotation_policy.rotation_period', 'is required');
  const rotation: RotationInput = { period };
  if (given?.next_rotation_at !== undefined) {
    rotation.nextRotationAtMs = futureMs(given.next_rotation_at, nowMs, 'rotation_policy.next_rotation_at');
  } else if (current?.next_rotation_at && current.rotation_period === period) {
    rotation.nextRotationAtMs = Date.parse(current.next_rotation_at);
  }
  const transition = given?.key_transition_period_ms ?? current?.key_transition_period_ms ?? undefined;
  if (transition !== undefined) rotation.transitionMs = transition;
  return rotation;
}
