/**
 * Organisation settings (spec §2.3) with their defaults, and the ones a workspace may override.
 *   user_api_key_auto_create          false   a default workspace-user key is made when a user joins a workspace
 *   user_api_key_ttl                  null    seconds a workspace-user key lives when it names no expiry (organisation only)
 *   user_api_key_rotation_period      null    `weekly` | `monthly` enforced on workspace-user keys (organisation only)
 *   membersViewPrompts true, membersWritePrompts false, managersViewPrompts true, managersWritePrompts true (v1.10)
 *   membersViewAllData true, managersViewAllData true (v1.11)
 *   managersWriteWsIntegrations true, managersWriteWsMcpIntegrations true, managersWriteMcpServers true (v1.14)
 *   organisationAdminsViewLogs true, organisationAdminsViewLogMetadata true (v1.15)
 *   session_settings                  null    { max_session_ttl: seconds ≥ 900, or null }: older SSO sessions are refused (v1.13, organisation only)
 * The routes each flag governs enforce it, reading the effective values through the OrgSettings service.
 */
import { BoundedInteger, compile, MAX_TTL_SECONDS, Nullable, StringEnum, Type } from '../../../core/index.js';

export type Settings = Readonly<Record<string, unknown>>;

const FLAGS = {
  user_api_key_auto_create: false,
  membersViewPrompts: true,
  membersWritePrompts: false,
  managersViewPrompts: true,
  managersWritePrompts: true,
  membersViewAllData: true,
  managersViewAllData: true,
  managersWriteWsIntegrations: true,
  managersWriteWsMcpIntegrations: true,
  managersWriteMcpServers: true,
  organisationAdminsViewLogs: true,
  organisationAdminsViewLogMetadata: true,
} as const;

export const DEFAULT_SETTINGS: Settings = Object.freeze({
  ...FLAGS,
  user_api_key_ttl: null,
  user_api_key_rotation_period: null,
  session_settings: null,
});

/** Spec §8: `max_session_ttl` is at least 900 seconds. */
export const MIN_SESSION_TTL_SECONDS = 900;

/** Keys a workspace may override. */
export const OVERRIDABLE: ReadonlySet<string> = new Set(Object.keys(FLAGS));

const flag = Type.Boolean();
const flagOrClear = Nullable(Type.Boolean());

/** `PUT /v1/organisation/settings`: any subset of the settings. */
export const organisationSettingsBody = compile(Type.Object({
  ...Object.fromEntries(Object.keys(FLAGS).map((k) => [k, Type.Optional(flag)])),
  user_api_key_ttl: Type.Optional(Nullable(BoundedInteger(60, MAX_TTL_SECONDS, 'seconds: 1 minute to 10 years'))),
  user_api_key_rotation_period: Type.Optional(Type.Union([StringEnum(['weekly', 'monthly']), Type.Null()], {
    errorMessage: 'must be "weekly", "monthly" or null',
  })),
  // An object (not nullable: the message then names the inner field); `max_session_ttl: null` lifts the limit.
  session_settings: Type.Optional(Type.Object({
    max_session_ttl: Type.Optional(Nullable(BoundedInteger(MIN_SESSION_TTL_SECONDS, MAX_TTL_SECONDS, 'seconds: at least 15 minutes'))),
  }, { additionalProperties: false })),
}, { additionalProperties: false }));

/** `PUT /v1/workspaces/:id/settings`: overrides; `null` removes one. */
export const workspaceSettingsBody = compile(Type.Object(
  Object.fromEntries(Object.keys(FLAGS).map((k) => [k, Type.Optional(flagOrClear)])),
  { additionalProperties: false },
));

/** Stored settings over the defaults (unknown stored keys are ignored). */
export function organisationValues(stored: Settings): Settings {
  const out: Record<string, unknown> = { ...DEFAULT_SETTINGS };
  for (const key in stored) if (key in DEFAULT_SETTINGS) out[key] = stored[key];
  return Object.freeze(out);
}

/** The organisation's values with a workspace's overrides on top. */
export function effectiveValues(organisation: Settings, overrides: Settings): Settings {
  const out: Record<string, unknown> = { ...organisation };
  for (const key in overrides) if (OVERRIDABLE.has(key) && overrides[key] !== null) out[key] = overrides[key];
  return Object.freeze(out);
}

/** `current` with `patch` applied; `null` values are removed when `clearNulls`. */
export function merged(current: Settings, patch: Record<string, unknown>, clearNulls: boolean): Record<string, unknown> {
  const out: Record<string, unknown> = { ...current };
  for (const [key, value] of Object.entries(patch)) {
    if (value === null && clearNulls) delete out[key];
    else out[key] = value;
  }
  return out;
}

export function parseSettings(text: string): Settings {
  try {
    const value: unknown = JSON.parse(text);
    return value && typeof value === 'object' && !Array.isArray(value) ? (value as Settings) : {};
  } catch {
    return {};
  }
}
