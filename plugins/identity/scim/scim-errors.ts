/**
 * Errors in the SCIM error schema (RFC 7644 §3.12): `{ schemas: [Error], status: "400", scimType?, detail }`.
 * Routes throw GatewayErrors whose `code` is the scimType; the respond tap (index.ts) turns every
 * error answered under /v1/scim/v2 — the key check's 401 and scope 403 included — into this shape.
 */
import { GatewayError, JsonPayload, type GatewayResponse } from '../../../core/index.js';
import { SCIM_CONTENT_TYPE } from './scim-json.js';

export const ERROR_SCHEMA = 'urn:ietf:params:scim:api:messages:2.0:Error';

/** RFC 7644 §3.12 scimType values this plugin answers with. */
export type ScimType = 'invalidFilter' | 'tooMany' | 'uniqueness' | 'mutability' | 'invalidSyntax' | 'invalidPath' | 'noTarget' | 'invalidValue' | 'invalidVers' | 'sensitive';

const SCIM_TYPES: ReadonlySet<string> = new Set(['invalidFilter', 'tooMany', 'uniqueness', 'mutability', 'invalidSyntax', 'invalidPath', 'noTarget', 'invalidValue', 'invalidVers', 'sensitive']);

export function scimError(status: number, scimType: ScimType | undefined, detail: string): GatewayError {
  return new GatewayError({ status, message: detail, ...(scimType ? { code: scimType } : {}), retryable: false });
}

export const ScimErrors = {
  invalidFilter: (detail: string) => scimError(400, 'invalidFilter', `filter: ${detail}`),
  invalidValue: (detail: string) => scimError(400, 'invalidValue', detail),
  invalidSyntax: (detail: string) => scimError(400, 'invalidSyntax', detail),
  invalidPath: (detail: string) => scimError(400, 'invalidPath', detail),
  noTarget: (detail: string) => scimError(400, 'noTarget', detail),
  mutability: (detail: string) => scimError(400, 'mutability', detail),
  uniqueness: (detail: string) => scimError(409, 'uniqueness', detail),
  notFound: (what: string, id: string) => scimError(404, undefined, `${what} ${id} not found`),
} as const;

/** The SCIM scimType for a gateway error: its own code when it is one, else what the status implies. */
function scimTypeOf(status: number, code: string | null): string | undefined {
  if (code && SCIM_TYPES.has(code)) return code;
  if (status === 400) return code === 'invalid_body' ? 'invalidSyntax' : 'invalidValue';
  if (status === 409) return 'uniqueness';
  return undefined;
}

/** An error answer (gateway envelope) rewritten in the SCIM error schema; other answers unchanged. */
export function asScimError(response: GatewayResponse): GatewayResponse {
  if (response.status < 400 || !response.json) return response;
  const value = response.json.tryValue() as { error?: { message?: unknown; code?: unknown } } | undefined;
  const error = value?.error;
  if (!error || typeof error.message !== 'string') return response;
  const scimType = scimTypeOf(response.status, typeof error.code === 'string' ? error.code : null);
  return {
    ...response,
    headers: { ...response.headers, 'content-type': SCIM_CONTENT_TYPE },
    json: JsonPayload.of({ schemas: [ERROR_SCHEMA], status: String(response.status), ...(scimType ? { scimType } : {}), detail: error.message }),
  };
}
