/** Request bodies of the integration routes (TypeBox, compiled once). */
import { StringEnum, Type, compile, type Static, type TSchema } from '../../../core/index.js';

const Opt = <S extends TSchema>(schema: S) => Type.Optional(schema);
const Strict = { additionalProperties: false } as const;

export const SLUG_PATTERN = '^[a-z0-9][a-z0-9_-]{0,62}$';
const Slug = Type.String({ pattern: SLUG_PATTERN, errorMessage: 'must be 1 to 63 lower-case letters, digits, _ or -, starting with a letter or digit' });
const HttpUrl = Type.String({ pattern: '^https?://[^\\s/?#]+(?:[/?#]\\S*)?$', errorMessage: 'must be an http(s) URL' });

/** Token classes are free names (input, output, cached_input, cache_write, reasoning, audio_input ...). */
const Multiplier = Type.Number({ exclusiveMinimum: 0, maximum: 1000 });
const PricingAdjustments = Type.Object({
  multiplier: Type.Union([Multiplier, Type.Record(Type.String({ pattern: '^[a-z][a-z0-9_]{0,63}$' }), Multiplier)], {
    errorMessage: 'must be a number > 0 (every token class) or an object of token class → number > 0',
  }),
}, Strict);

const SecretMapping = Type.Object({
  /** `key`, or `configurations.<field>`. */
  target_field: Type.String({ minLength: 1, maxLength: 128 }),
  /** The slug of a stored secret reference (security.secret-references), or an environment variable name. */
  secret_reference: Type.String({ minLength: 1, maxLength: 256 }),
  value_format: Opt(StringEnum(['string', 'json'])),
}, Strict);

export const Model = Type.Object({
  /** The model name as requests send it (`model`). */
  slug: Type.String({ minLength: 1, maxLength: 256 }),
  /** false hides the model (also a provider default) from GET /v1/models. */
  enabled: Opt(Type.Boolean()),
  /** Model-specific settings; when given, a non-empty object with a valid `custom_host`. */
  configurations: Opt(Type.Object({ custom_host: HttpUrl }, Strict)),
}, Strict);

const Fields = {
  name: Type.String({ minLength: 1, maxLength: 255 }),
  slug: Slug,
  description: Type.String({ maxLength: 2048 }),
  provider: Type.String({ minLength: 1, maxLength: 64 }),
  /** The provider key; sealed at rest, masked in answers. */
  key: Type.String({ minLength: 1, maxLength: 16_384 }),
  configurations: Type.Object({}),
  allow_all_workspaces: Type.Boolean(),
  allowed_workspaces: Type.Array(Type.String({ minLength: 1, maxLength: 128 }), { maxItems: 1000 }),
  create_default_provider: Type.Boolean(),
  default_provider_slug: Slug,
  pricing_adjustments: PricingAdjustments,
  secret_mappings: Type.Array(SecretMapping, { maxItems: 32 }),
  models: Type.Array(Model, { maxItems: 1000 }),
};

export const CreateBody = Type.Object({
  ...Type.Partial(Type.Object(Fields)).properties,
  slug: Fields.slug,
  provider: Fields.provider,
}, Strict);

export const UpdateBody = Type.Partial(Type.Object(Fields, Strict));

export const ModelsBody = Type.Object({ models: Fields.models }, Strict);

export type CreateInput = Static<typeof CreateBody>;
export type UpdateInput = Static<typeof UpdateBody>;
export type ModelInput = Static<typeof Model>;
export type SecretMappingInput = Static<typeof SecretMapping>;
export type PricingInput = Static<typeof PricingAdjustments>;

export const validateCreate = compile(CreateBody);
export const validateUpdate = compile(UpdateBody);
export const validateModels = compile(ModelsBody);
