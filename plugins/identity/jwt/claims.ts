/**
 * The claims an organisation maps (settings `claims`): the subject, the person's email (and name),
 * the workspace (id or slug) and the groups. A claim the mapping needs and the token lacks is a 401
 * naming it.
 */
import { Errors, type JwtIdentity } from '../../../core/index.js';
import type { ClaimNames } from './settings.js';

const EMAIL = /^[^\s@]+@[^\s@]+$/;

export interface MappedClaims {
  identity: JwtIdentity;
  email: string;
  name?: string;
  /** The workspace the token names, when the organisation maps one. */
  workspace?: string;
}

export function mapClaims(claims: Readonly<Record<string, unknown>>, names: ClaimNames): MappedClaims {
  const subject = claims[names.subject];
  if (typeof subject !== 'string' || subject === '') throw missing(names.subject, 'a non-empty string (the subject)');
  const email = claims[names.email];
  if (typeof email !== 'string' || !EMAIL.test(email) || email.length > 320) throw missing(names.email, 'an email address (the person)');
  const mapped: MappedClaims = {
    identity: Object.freeze({ claims: Object.freeze({ ...claims }), subject, groups: Object.freeze(groupsOf(claims[names.groups])) }),
    email,
  };
  const name = claims['name'];
  if (typeof name === 'string' && name !== '') mapped.name = name.slice(0, 255);
  if (names.workspace !== null) {
    const workspace = claims[names.workspace];
    if (workspace !== undefined && (typeof workspace !== 'string' || workspace === '')) throw missing(names.workspace, 'a workspace id or slug');
    if (typeof workspace === 'string') mapped.workspace = workspace;
  }
  return mapped;
}

/** A list of strings, or one string of names separated by spaces or commas (as some providers send). */
function groupsOf(value: unknown): string[] {
  if (Array.isArray(value)) return value.filter((v): v is string => typeof v === 'string' && v !== '');
  if (typeof value === 'string') return value.split(/[\s,]+/).filter(Boolean);
  return [];
}

function missing(claim: string, what: string) {
  return Errors.unauthorized(`bearer JWT refused: claim "${claim}" must be ${what}`);
}
