/**
 * Discovery (RFC 7644 §4, RFC 7643 §5–7), under /v1/scim/v2:
 *   GET /ServiceProviderConfig    what this server supports (PATCH and filters yes; bulk, sort, ETags,
 *                                 password change no); authentication: a gateway key as a bearer token
 *   GET /Schemas, /Schemas/:id    the User and Group schemas' attributes
 *   GET /ResourceTypes, /ResourceTypes/:id
 */
import type { RouteDef } from '../../../core/index.js';
import { scimCaller } from './auth.js';
import { BASE } from './deps.js';
import { MAX_COUNT } from './list-params.js';
import { ScimErrors } from './scim-errors.js';
import { ENTERPRISE_USER_SCHEMA, GROUP_SCHEMA, listResponse, scimJson, USER_SCHEMA } from './scim-json.js';

const CONFIG_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:ServiceProviderConfig';
const SCHEMA_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:Schema';
const RESOURCE_TYPE_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:ResourceType';

type Mutability = 'readOnly' | 'readWrite' | 'immutable' | 'writeOnly';

interface AttributeOptions {
  required?: boolean;
  multiValued?: boolean;
  caseExact?: boolean;
  mutability?: Mutability;
  returned?: 'always' | 'never' | 'default' | 'request';
  uniqueness?: 'none' | 'server' | 'global';
  subAttributes?: object[];
  referenceTypes?: string[];
}

function attribute(name: string, type: string, description: string, options: AttributeOptions = {}): object {
  return {
    name, type, description,
    multiValued: options.multiValued ?? false,
    required: options.required ?? false,
    caseExact: options.caseExact ?? false,
    mutability: options.mutability ?? 'readWrite',
    returned: options.returned ?? 'default',
    uniqueness: options.uniqueness ?? 'none',
    ...(options.subAttributes ? { subAttributes: options.subAttributes } : {}),
    ...(options.referenceTypes ? { referenceTypes: options.referenceTypes } : {}),
  };
}

const USER_ATTRIBUTES = [
  attribute('userName', 'string', 'Unique identifier of the user in the organisation (case-insensitive).', { required: true, uniqueness: 'server' }),
  attribute('name', 'complex', 'The components of the user\'s name.', {
    subAttributes: [
      attribute('formatted', 'string', 'The full name.'),
      attribute('familyName', 'string', 'The family name.'),
      attribute('givenName', 'string', 'The given name.'),
    ],
  }),
  attribute('displayName', 'string', 'The name shown for the user; also their name in the gateway.'),
  attribute('active', 'boolean', 'False ends every workspace membership and deletes the user\'s workspace-user keys.'),
  attribute('emails', 'complex', 'Email addresses; the primary one (else the first) is the user\'s email in the gateway.', {
    multiValued: true,
    subAttributes: [
      attribute('value', 'string', 'The email address.'),
      attribute('type', 'string', 'work, home or other.'),
      attribute('primary', 'boolean', 'The primary address.'),
    ],
  }),
  attribute('groups', 'complex', 'Groups the user belongs to (writable when SCIM_MEMBERSHIP_USER_MODE=ON).', {
    multiValued: true, mutability: 'readOnly',
    subAttributes: [
      attribute('value', 'string', 'The group id.', { mutability: 'readOnly' }),
      attribute('$ref', 'reference', 'The group\'s URI.', { mutability: 'readOnly', referenceTypes: ['Group'] }),
      attribute('display', 'string', 'The group\'s displayName.', { mutability: 'readOnly' }),
    ],
  }),
];

const GROUP_ATTRIBUTES = [
  attribute('displayName', 'string', 'The group\'s name, unique in the organisation (case-insensitive).', { required: true, uniqueness: 'server' }),
  attribute('members', 'complex', 'The users in the group.', {
    multiValued: true,
    subAttributes: [
      attribute('value', 'string', 'The user id.', { mutability: 'immutable' }),
      attribute('$ref', 'reference', 'The user\'s URI.', { mutability: 'immutable', referenceTypes: ['User'] }),
      attribute('display', 'string', 'The user\'s displayName.', { mutability: 'readOnly' }),
    ],
  }),
];

const SCHEMAS = [
  { schemas: [SCHEMA_SCHEMA], id: USER_SCHEMA, name: 'User', description: 'User Account', attributes: USER_ATTRIBUTES, meta: { resourceType: 'Schema', location: `${BASE}/Schemas/${USER_SCHEMA}` } },
  { schemas: [SCHEMA_SCHEMA], id: GROUP_SCHEMA, name: 'Group', description: 'Group', attributes: GROUP_ATTRIBUTES, meta: { resourceType: 'Schema', location: `${BASE}/Schemas/${GROUP_SCHEMA}` } },
];

const RESOURCE_TYPES = [
  {
    schemas: [RESOURCE_TYPE_SCHEMA], id: 'User', name: 'User', endpoint: '/Users', description: 'User Account', schema: USER_SCHEMA,
    schemaExtensions: [{ schema: ENTERPRISE_USER_SCHEMA, required: false }],
    meta: { resourceType: 'ResourceType', location: `${BASE}/ResourceTypes/User` },
  },
  {
    schemas: [RESOURCE_TYPE_SCHEMA], id: 'Group', name: 'Group', endpoint: '/Groups', description: 'Group', schema: GROUP_SCHEMA,
    meta: { resourceType: 'ResourceType', location: `${BASE}/ResourceTypes/Group` },
  },
];

const SERVICE_PROVIDER_CONFIG = {
  schemas: [CONFIG_SCHEMA],
  documentationUri: 'https://datatracker.ietf.org/doc/html/rfc7644',
  patch: { supported: true },
  bulk: { supported: false, maxOperations: 0, maxPayloadSize: 0 },
  filter: { supported: true, maxResults: MAX_COUNT },
  changePassword: { supported: false },
  sort: { supported: false },
  etag: { supported: false },
  authenticationSchemes: [{
    type: 'oauthbearertoken', name: 'Gateway API key', primary: true,
    description: 'A gateway API key with the scope scim.* sent as Authorization: Bearer <key> (or in x-gw-api-key).',
  }],
  meta: { resourceType: 'ServiceProviderConfig', location: `${BASE}/ServiceProviderConfig` },
};

export function discoveryRoutes(): RouteDef[] {
  const all = (items: readonly object[]) => listResponse({ startIndex: 1, count: items.length }, items.length, items);
  return [
    {
      method: 'GET', path: `${BASE}/ServiceProviderConfig`, body: 'none',
      handler: async (ctx) => {
        scimCaller(ctx, 'read');
        return scimJson(200, SERVICE_PROVIDER_CONFIG);
      },
    },
    {
      method: 'GET', path: `${BASE}/Schemas`, body: 'none',
      handler: async (ctx) => {
        scimCaller(ctx, 'read');
        return scimJson(200, all(SCHEMAS));
      },
    },
    {
      method: 'GET', path: `${BASE}/Schemas/:id`, body: 'none',
      handler: async (ctx) => {
        scimCaller(ctx, 'read');
        const schema = SCHEMAS.find((s) => s.id === ctx.params['id']);
        if (!schema) throw ScimErrors.notFound('Schema', ctx.params['id']!);
        return scimJson(200, schema);
      },
    },
    {
      method: 'GET', path: `${BASE}/ResourceTypes`, body: 'none',
      handler: async (ctx) => {
        scimCaller(ctx, 'read');
        return scimJson(200, all(RESOURCE_TYPES));
      },
    },
    {
      method: 'GET', path: `${BASE}/ResourceTypes/:id`, body: 'none',
      handler: async (ctx) => {
        scimCaller(ctx, 'read');
        const type = RESOURCE_TYPES.find((t) => t.id === ctx.params['id']);
        if (!type) throw ScimErrors.notFound('ResourceType', ctx.params['id']!);
        return scimJson(200, type);
      },
    },
  ];
}
