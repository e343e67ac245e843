/** Request bodies of the MCP server routes (TypeBox, compiled once). Per-type auth rules are in auth-rules.ts. */
import { StringEnum, Type, compile, type Static, type TSchema } from '../../../core/index.js';

const Opt = <S extends TSchema>(schema: S) => Type.Optional(schema);
const Strict = { additionalProperties: false } as const;

export const AUTH_TYPES = ['none', 'bearer', 'headers', 'oauth2_client_credentials', 'user_bearer'] as const;
export const CLIENT_AUTH_METHODS = ['client_secret_basic', 'client_secret_post'] as const;

const Slug = Type.String({ pattern: '^[a-z0-9][a-z0-9_-]{0,62}$', errorMessage: 'must be 1 to 63 lower-case letters, digits, _ or -, starting with a letter or digit' });
const HttpUrl = Type.String({ maxLength: 2048, pattern: '^https?://[^\\s/?#]+(?:[/?#]\\S*)?$', errorMessage: 'must be an http(s) URL' });
/** MCP tool names (2025-06-18 schema: 1 to 128 of A-Z a-z 0-9 _ - .); a little looser for older servers. */
const ToolName = Type.String({ minLength: 1, maxLength: 128, pattern: '^[A-Za-z0-9_.\\-/:]+$', errorMessage: 'must be 1 to 128 letters, digits, _ - . / or :' });
const ToolList = Type.Array(ToolName, { maxItems: 1000, uniqueItems: true });

export const MAX_HEADERS = 32;

const Auth = Type.Object({
  type: StringEnum([...AUTH_TYPES]),
  /** bearer: the token; sealed at rest, masked in answers. */
  token: Opt(Type.String({ minLength: 1, maxLength: 16_384 })),
  /** headers: name → value; values sealed at rest, masked in answers. */
  headers: Opt(Type.Record(Type.String(), Type.String({ minLength: 1, maxLength: 8192 }))),
  token_url: Opt(HttpUrl),
  client_id: Opt(Type.String({ minLength: 1, maxLength: 1024 })),
  client_secret: Opt(Type.String({ minLength: 1, maxLength: 16_384 })),
  scope: Opt(Type.String({ minLength: 1, maxLength: 2048 })),
  audience: Opt(Type.String({ minLength: 1, maxLength: 2048 })),
  /** How the client authenticates at the token endpoint (RFC 6749 §2.3.1); default client_secret_basic. */
  token_endpoint_auth_method: Opt(StringEnum([...CLIENT_AUTH_METHODS])),
}, Strict);

const SecretMapping = Type.Object({
  /** `auth.token`, `auth.client_secret` or `auth.headers.<name>`. */
  target_field: Type.String({ minLength: 1, maxLength: 160 }),
  /** The secret reference's slug (or an environment variable name without a SecretReferences plugin). */
  secret_reference: Type.String({ minLength: 1, maxLength: 256 }),
  value_format: Opt(StringEnum(['string', 'json'])),
}, Strict);

const Fields = {
  name: Type.String({ minLength: 1, maxLength: 255 }),
  slug: Slug,
  /** null clears it. */
  description: Type.Union([Type.String({ maxLength: 2048 }), Type.Null()], { errorMessage: 'must be a string of at most 2048 characters, or null' }),
  url: HttpUrl,
  auth: Auth,
  allowed_tools: Type.Union([ToolList, Type.Null()], { errorMessage: 'must be an array of tool names or null' }),
  denied_tools: ToolList,
  workspace_id: Type.String({ minLength: 1, maxLength: 128 }),
  allow_all_workspaces: Type.Boolean(),
  allowed_workspaces: Type.Array(Type.String({ minLength: 1, maxLength: 128 }), { maxItems: 1000 }),
  secret_mappings: Type.Array(SecretMapping, { maxItems: 32 }),
};

export const CreateBody = Type.Object({
  ...Type.Partial(Type.Object(Fields)).properties,
  slug: Fields.slug,
  url: Fields.url,
}, Strict);

/** `workspace_id` may be sent back unchanged (GET → PUT; null: an organisation server) but never changes. */
export const UpdateBody = Type.Partial(Type.Object({
  ...Fields,
  workspace_id: Type.Union([Fields.workspace_id, Type.Null()], { errorMessage: 'must be a workspace id or slug, or null' }),
}, Strict));

export type CreateInput = Static<typeof CreateBody>;
export type UpdateInput = Static<typeof UpdateBody>;
export type AuthInput = Static<typeof Auth>;
export type SecretMappingInput = Static<typeof SecretMapping>;

export const validateCreate = compile(CreateBody);
export const validateUpdate = compile(UpdateBody);
