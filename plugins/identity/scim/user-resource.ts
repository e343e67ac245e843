/**
 * The SCIM User resource (RFC 7643 §4.1) as we read it from a body and answer it. `userName` is
 * required and unique in the organisation (case-insensitive). The person's email is the primary
 * `emails` value, else the first, else `userName` when it is an email. `active` also accepts
 * "true"/"false" strings (Entra ID sends them). A `password` is never kept. Attributes beyond the
 * ones filters use (name.formatted, other emails, extensions ...) are kept as sent and answered back.
 */
import { ScimErrors } from './scim-errors.js';
import { USER_SCHEMA } from './scim-json.js';
import type { ScimUserRow } from './users-repo.js';

type Json = Record<string, unknown>;

const EMAIL = /^[^\s@]+@[^\s@]+$/;
const MAX_TEXT = 1024;
/** Attributes answered from columns or made by us, never kept in `resource`. */
const NOT_KEPT = new Set(['id', 'meta', 'schemas', 'groups', 'password', 'username', 'externalid', 'displayname', 'active']);

export interface UserInput {
  userName: string;
  externalId: string | null;
  displayName: string | null;
  givenName: string | null;
  familyName: string | null;
  email: string;
  active: boolean;
  /** The person's name in the gateway. */
  personName: string | null;
  resource: Json;
  /** SCIM_MEMBERSHIP_USER_MODE: the group ids sent in `groups` (undefined when absent). */
  groups?: string[];
}

function pick(body: Json, name: string): unknown {
  const lower = name.toLowerCase();
  const key = Object.keys(body).find((k) => k.toLowerCase() === lower);
  return key === undefined ? undefined : body[key];
}

function text(body: Json, name: string, required = false): string | null {
  const value = pick(body, name);
  if (value === undefined || value === null || value === '') {
    if (required) throw ScimErrors.invalidValue(`${name}: is required`);
    return null;
  }
  if (typeof value !== 'string') throw ScimErrors.invalidValue(`${name}: must be a string`);
  if (value.length > MAX_TEXT) throw ScimErrors.invalidValue(`${name}: at most ${MAX_TEXT} characters`);
  return value;
}

function flag(value: unknown, name: string): boolean {
  if (value === undefined || value === null) return true;
  if (typeof value === 'boolean') return value;
  if (typeof value === 'string' && /^(true|false)$/i.test(value)) return value.toLowerCase() === 'true';
  throw ScimErrors.invalidValue(`${name}: must be a boolean`);
}

function primaryEmail(emails: unknown, userName: string): string {
  if (emails !== undefined && emails !== null && !Array.isArray(emails)) throw ScimErrors.invalidValue('emails: must be an array');
  const list = (emails ?? []) as unknown[];
  const values = list.filter((e): e is Json => e !== null && typeof e === 'object' && typeof (e as Json)['value'] === 'string');
  const chosen = values.find((e) => e['primary'] === true || e['primary'] === 'true') ?? values[0];
  const email = (chosen?.['value'] as string | undefined) ?? (EMAIL.test(userName) ? userName : undefined);
  if (email === undefined) throw ScimErrors.invalidValue('emails: a user needs an email (an emails[].value, or a userName that is an email)');
  if (!EMAIL.test(email) || email.length > 320) throw ScimErrors.invalidValue(`emails: "${email}" is not an email address`);
  return email.toLowerCase();
}

export function userInput(body: unknown, membershipMode: boolean): UserInput {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) throw ScimErrors.invalidSyntax('body: must be a User object');
  const user = body as Json;
  const userName = text(user, 'userName', true)!;
  const name = pick(user, 'name');
  if (name !== undefined && name !== null && (typeof name !== 'object' || Array.isArray(name))) throw ScimErrors.invalidValue('name: must be an object');
  const nameObject = (name ?? {}) as Json;
  const givenName = text(nameObject, 'givenName');
  const familyName = text(nameObject, 'familyName');
  const displayName = text(user, 'displayName');
  const formatted = text(nameObject, 'formatted');
  const resource: Json = {};
  for (const [key, value] of Object.entries(user)) if (!NOT_KEPT.has(key.toLowerCase())) resource[key] = value;
  const input: UserInput = {
    userName,
    externalId: text(user, 'externalId'),
    displayName,
    givenName,
    familyName,
    email: primaryEmail(pick(user, 'emails'), userName),
    active: flag(pick(user, 'active'), 'active'),
    personName: displayName ?? formatted ?? ([givenName, familyName].filter(Boolean).join(' ') || null),
    resource,
  };
  const groups = pick(user, 'groups');
  if (membershipMode && groups !== undefined && groups !== null) {
    if (!Array.isArray(groups)) throw ScimErrors.invalidValue('groups: must be an array');
    input.groups = groups.map((g, i) => {
      const value = g !== null && typeof g === 'object' ? (g as Json)['value'] : undefined;
      if (typeof value !== 'string' || value === '') throw ScimErrors.invalidValue(`groups[${i}].value: must be a group id`);
      return value;
    });
  }
  return input;
}

export function userView(row: ScimUserRow, groups?: ReadonlyArray<{ id: string; display_name: string }>): Json {
  const resource = JSON.parse(row.resource) as Json;
  const extensions = Object.keys(resource).filter((k) => k.toLowerCase().startsWith('urn:'));
  const emails = resource['emails'] ?? [{ value: row.email, type: 'work', primary: true }];
  return {
    schemas: [USER_SCHEMA, ...extensions],
    id: row.user_id,
    ...(row.external_id === null ? {} : { externalId: row.external_id }),
    userName: row.user_name,
    ...(row.display_name === null ? {} : { displayName: row.display_name }),
    ...resource,
    emails,
    active: row.active === 1,
    ...(groups ? { groups: groups.map((g) => ({ value: g.id, display: g.display_name, $ref: `/v1/scim/v2/Groups/${g.id}` })) } : {}),
    meta: { resourceType: 'User', created: row.created_at, lastModified: row.last_updated_at, location: `/v1/scim/v2/Users/${row.user_id}` },
  };
}
