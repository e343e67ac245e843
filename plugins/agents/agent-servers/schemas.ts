/** Request bodies of the agent-server routes (TypeBox, compiled once). */
import { StringEnum, Type, compile, type Static, type TSchema } from '../../../core/index.js';

const Opt = <S extends TSchema>(schema: S) => Type.Optional(schema);
const Strict = { additionalProperties: false } as const;

export const AUTH_TYPES = ['none', 'bearer', 'headers'] as const;
export type AuthType = (typeof AUTH_TYPES)[number];

const Slug = Type.String({ pattern: '^[a-z0-9][a-z0-9_-]{0,62}$', errorMessage: 'must be 1 to 63 lower-case letters, digits, _ or -, starting with a letter or digit' });
const HttpUrl = Type.String({ maxLength: 2048, pattern: '^https?://[^\\s/?#]+(?:[/?#]\\S*)?$', errorMessage: 'must be an http(s) URL' });

export const MAX_AUTH_HEADERS = 32;

const Auth = Type.Object({
  type: StringEnum([...AUTH_TYPES]),
  /** bearer: the token; sealed at rest, never answered. */
  token: Opt(Type.String({ minLength: 1, maxLength: 16_384 })),
  /** headers: name → value; values sealed at rest, never answered. */
  headers: Opt(Type.Record(Type.String(), Type.String({ minLength: 1, maxLength: 8192, pattern: '^[^\\r\\n\\0]*$' }), {
    errorMessage: 'must be an object of header name → non-empty value without line breaks',
  })),
}, Strict);

const Fields = {
  name: Type.String({ minLength: 1, maxLength: 255 }),
  slug: Slug,
  description: Type.String({ maxLength: 2048 }),
  /** The A2A agent's base URL: its card is at `{url}/.well-known/agent-card.json`. */
  url: HttpUrl,
  auth: Auth,
  workspace_id: Type.String({ minLength: 1, maxLength: 128 }),
  allow_all_workspaces: Type.Boolean(),
  allowed_workspaces: Type.Array(Type.String({ minLength: 1, maxLength: 128 }), { maxItems: 1000 }),
};

export const CreateBody = Type.Object({
  ...Type.Partial(Type.Object(Fields)).properties,
  name: Fields.name,
  slug: Fields.slug,
  url: Fields.url,
}, Strict);

/** Fields given replace the stored ones; `workspace_id` may be sent back unchanged but never changes. */
export const UpdateBody = Type.Partial(Type.Object(Fields, Strict));

export type CreateInput = Static<typeof CreateBody>;
export type UpdateInput = Static<typeof UpdateBody>;
export type AuthInput = Static<typeof Auth>;

export const validateCreate = compile(CreateBody);
export const validateUpdate = compile(UpdateBody);
