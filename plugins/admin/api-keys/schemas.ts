/**
 * Bodies of the API key routes, compiled once:
 *   POST /v1/api-keys              { name, type, workspace_id?, user_id?, scopes?, expires_at? | ttl?, rotation_policy?, default_config_id? }
 *   PUT  /v1/api-keys/:id          { name?, scopes?, expires_at?, rotation_policy?, default_config_id? }  (null clears expiry, policy or default config)
 *   POST /v1/api-keys/:id/rotate   { key_transition_period_ms? }
 */
import { BoundedInteger, compile, DAY_MS, MAX_TTL_SECONDS, Nullable, StringEnum, Type, type Static } from '../../../core/index.js';

const Opt = Type.Optional;

/** Spec §8: at least 30 minutes; at most 30 days (our cap: a longer overlap defeats rotating). */
export const MIN_TRANSITION_MS = 30 * 60 * 1000;
export const MAX_TRANSITION_MS = 30 * DAY_MS;
export const MIN_TTL_SECONDS = 60;

/** `*`, `<resource>`, `<resource>.<action>`, `<resource>.*` or `*.<action>` (e.g. `*.rotate`). */
const SCOPE_PATTERN = '^(\\*|\\*\\.[a-z][a-z0-9_-]*|[a-z][a-z0-9_-]*(\\.(\\*|[a-z][a-z0-9_-]*))?)$';
const ISO_PATTERN = '^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}(:\\d{2}(\\.\\d{1,9})?)?(Z|[+-]\\d{2}:\\d{2})$';

const IsoDate = Type.String({ pattern: ISO_PATTERN, errorMessage: 'must be an ISO 8601 date-time with a time zone, e.g. 2030-01-31T00:00:00Z' });
const Scopes = Type.Array(
  Type.String({ pattern: SCOPE_PATTERN, errorMessage: 'must be a scope like api_keys.read, api_keys.*, *.rotate or *' }),
  { maxItems: 200, uniqueItems: true },
);
const TransitionMs = BoundedInteger(MIN_TRANSITION_MS, MAX_TRANSITION_MS, 'milliseconds: 30 minutes to 30 days');

/** A stored config's id or slug (admin.configs); stored as its id. */
const DefaultConfigId = Type.String({ minLength: 1, maxLength: 255 });

const RotationPolicy = Type.Object({
  rotation_period: Opt(StringEnum(['weekly', 'monthly'])),
  next_rotation_at: Opt(IsoDate),
  key_transition_period_ms: Opt(TransitionMs),
}, { additionalProperties: false });

const CreateBody = Type.Object({
  name: Type.String({ minLength: 1, maxLength: 255 }),
  type: StringEnum(['organisation-service', 'workspace-service', 'workspace-user']),
  workspace_id: Opt(Type.String({ minLength: 1 })),
  user_id: Opt(Type.String({ minLength: 1 })),
  scopes: Opt(Scopes),
  expires_at: Opt(IsoDate),
  ttl: Opt(BoundedInteger(MIN_TTL_SECONDS, MAX_TTL_SECONDS, 'seconds: 1 minute to 10 years')),
  rotation_policy: Opt(RotationPolicy),
  default_config_id: Opt(DefaultConfigId),
}, { additionalProperties: false });

const UpdateBody = Type.Object({
  name: Opt(Type.String({ minLength: 1, maxLength: 255 })),
  scopes: Opt(Scopes),
  expires_at: Opt(Nullable(IsoDate)),
  rotation_policy: Opt(Nullable(RotationPolicy)),
  default_config_id: Opt(Nullable(DefaultConfigId)),
}, { additionalProperties: false, minProperties: 1 });

const RotateBody = Type.Object({
  key_transition_period_ms: Opt(TransitionMs),
}, { additionalProperties: false });

export type CreateBody = Static<typeof CreateBody>;
export type UpdateBody = Static<typeof UpdateBody>;
export type RotateBody = Static<typeof RotateBody>;
export type RotationPolicyBody = Static<typeof RotationPolicy>;

export const createBody = compile(CreateBody);
export const updateBody = compile(UpdateBody);
export const rotateBody = compile(RotateBody);
