/**
 * Bodies of the workspace, user and membership routes, compiled once. Roles are case-insensitive
 * (spec §2.3): they are checked lower-cased after the schema.
 */
import { compile, Nullable, Type, type Static } from '../../../core/index.js';

const Opt = Type.Optional;

/** Slugs: lower-case letters, digits and dashes, starting with a letter or digit, up to 64. */
export const SLUG_PATTERN = /^[a-z0-9][a-z0-9-]{0,63}$/;
const Slug = Type.String({ pattern: SLUG_PATTERN.source, errorMessage: 'must be 1 to 64 lower-case letters, digits or dashes, starting with a letter or digit' });
const Name = Type.String({ minLength: 1, maxLength: 255 });
const Description = Nullable(Type.String({ maxLength: 2000 }));
const Role = Type.String({ minLength: 1, maxLength: 32 });

/** A stored config's id or slug (admin.configs); stored as its id. */
const DefaultConfigId = Type.String({ minLength: 1, maxLength: 255 });
const CreateWorkspace = Type.Object({ name: Name, slug: Opt(Slug), description: Opt(Description), default_config_id: Opt(DefaultConfigId) }, { additionalProperties: false });
const UpdateWorkspace = Type.Object({
  name: Opt(Name), slug: Opt(Slug), description: Opt(Description), default_config_id: Opt(Nullable(DefaultConfigId)),
}, { additionalProperties: false, minProperties: 1 });
const CreateUser = Type.Object({
  email: Type.String({ pattern: '^[^\\s@]+@[^\\s@]+$', maxLength: 320, errorMessage: 'must be an email address' }),
  name: Opt(Type.String({ maxLength: 255 })),
  role: Opt(Role),
}, { additionalProperties: false });
const AddMember = Type.Object({ user_id: Type.String({ minLength: 1 }), role: Role }, { additionalProperties: false });
const UpdateMember = Type.Object({ role: Role }, { additionalProperties: false });

export type CreateWorkspace = Static<typeof CreateWorkspace>;
export type UpdateWorkspace = Static<typeof UpdateWorkspace>;

export const createWorkspaceBody = compile(CreateWorkspace);
export const updateWorkspaceBody = compile(UpdateWorkspace);
export const createUserBody = compile(CreateUser);
export const addMemberBody = compile(AddMember);
export const updateMemberBody = compile(UpdateMember);

export const ORGANISATION_ROLES = ['owner', 'admin', 'member'] as const;
export type OrganisationRole = (typeof ORGANISATION_ROLES)[number];

/** A role from a body, lower-cased and checked against `allowed`. */
export function roleFrom<T extends string>(value: string, allowed: readonly T[], path: string, fail: (path: string, rule: string) => Error): T {
  const role = value.toLowerCase();
  if (!(allowed as readonly string[]).includes(role)) throw fail(path, `must be one of ${allowed.join(', ')} (any case)`);
  return role as T;
}

/** A slug made from a name: lower-case words joined by dashes. */
export function slugify(name: string): string {
  const slug = name.normalize('NFKD').toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 56).replace(/-+$/, '');
  return slug || 'workspace';
}
