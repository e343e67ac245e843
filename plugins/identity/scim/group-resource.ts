/**
 * The SCIM Group resource (RFC 7643 §4.2): `displayName` required and unique in the organisation
 * (case-insensitive; group-to-workspace mappings name groups by it), `externalId`, and `members`
 * whose `value` is a SCIM user id of the organisation.
 */
import { ScimErrors } from './scim-errors.js';
import { GROUP_SCHEMA } from './scim-json.js';
import type { GroupMember, ScimGroupRow } from './groups-repo.js';

type Json = Record<string, unknown>;

const MAX_NAME = 255;

export interface GroupInput {
  displayName: string;
  externalId: string | null;
  /** User ids; undefined when the body has no `members`. */
  members?: string[];
}

function pick(body: Json, name: string): unknown {
  const lower = name.toLowerCase();
  const key = Object.keys(body).find((k) => k.toLowerCase() === lower);
  return key === undefined ? undefined : body[key];
}

export function groupInput(body: unknown): GroupInput {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) throw ScimErrors.invalidSyntax('body: must be a Group object');
  const group = body as Json;
  const displayName = pick(group, 'displayName');
  if (typeof displayName !== 'string' || displayName.trim() === '') throw ScimErrors.invalidValue('displayName: is required');
  if (displayName.length > MAX_NAME) throw ScimErrors.invalidValue(`displayName: at most ${MAX_NAME} characters`);
  const externalId = pick(group, 'externalId');
  if (externalId !== undefined && externalId !== null && typeof externalId !== 'string') throw ScimErrors.invalidValue('externalId: must be a string');
  const input: GroupInput = { displayName, externalId: (externalId as string | undefined) || null };
  const members = pick(group, 'members');
  if (members !== undefined && members !== null) {
    if (!Array.isArray(members)) throw ScimErrors.invalidValue('members: must be an array');
    input.members = members.map((m, i) => {
      const value = m !== null && typeof m === 'object' ? (m as Json)['value'] : undefined;
      if (typeof value !== 'string' || value === '') throw ScimErrors.invalidValue(`members[${i}].value: must be a user id`);
      return value;
    });
  } else if (members === null) {
    input.members = [];
  }
  return input;
}

export function groupView(row: ScimGroupRow, members: readonly GroupMember[] | undefined): Json {
  return {
    schemas: [GROUP_SCHEMA],
    id: row.id,
    displayName: row.display_name,
    ...(row.external_id === null ? {} : { externalId: row.external_id }),
    ...(members ? { members: members.map((m) => ({ value: m.user_id, display: m.display_name ?? m.user_name, $ref: `/v1/scim/v2/Users/${m.user_id}` })) } : {}),
    meta: { resourceType: 'Group', created: row.created_at, lastModified: row.last_updated_at, location: `/v1/scim/v2/Groups/${row.id}` },
  };
}
