/**
 * Request bodies of /v1/secret-references (TypeBox, compiled once). `manager_config` is checked
 * against its manager's own schema (managers/*.ts) once the manager is known.
 */
import { StringEnum, Type, compile, type Static } from '../../../core/index.js';
import { MANAGER_IDS } from './managers/index.js';

const Strict = { additionalProperties: false } as const;

export const SLUG_PATTERN = '^[a-z0-9][a-z0-9_-]{0,62}$';

const Fields = {
  name: Type.String({ minLength: 1, maxLength: 255 }),
  slug: Type.String({ pattern: SLUG_PATTERN, errorMessage: 'must be 1 to 63 lower-case letters, digits, _ or -, starting with a letter or digit' }),
  description: Type.String({ maxLength: 2048 }),
  manager: StringEnum([...MANAGER_IDS]),
  manager_config: Type.Object({}, { errorMessage: 'must be an object (the manager\'s settings)' }),
  secret_path: Type.String({ minLength: 1, maxLength: 2048, pattern: '\\S', errorMessage: 'must be a non-empty string of at most 2048 characters' }),
  /** A key of a JSON secret; null removes it on update. */
  secret_key: Type.Union([Type.String({ minLength: 1, maxLength: 256 }), Type.Null()], { errorMessage: 'must be a string of 1 to 256 characters, or null' }),
  allow_all_workspaces: Type.Boolean(),
  allowed_workspaces: Type.Array(Type.String({ minLength: 1, maxLength: 128 }), { maxItems: 1000 }),
};

export const CreateBody = Type.Object({
  ...Type.Partial(Type.Object(Fields)).properties,
  slug: Fields.slug,
  manager: Fields.manager,
  secret_path: Fields.secret_path,
}, Strict);

export const UpdateBody = Type.Partial(Type.Object(Fields, Strict));

export type CreateInput = Static<typeof CreateBody>;
export type UpdateInput = Static<typeof UpdateBody>;

export const validateCreate = compile(CreateBody);
export const validateUpdate = compile(UpdateBody);
