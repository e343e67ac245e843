/** SCIM answers: `application/scim+json` (RFC 7644 §3.1), never cached, and the ListResponse message. */
import { JsonPayload, type GatewayResponse } from '../../../core/index.js';

export const SCIM_CONTENT_TYPE = 'application/scim+json; charset=utf-8';
export const LIST_SCHEMA = 'urn:ietf:params:scim:api:messages:2.0:ListResponse';
export const PATCH_SCHEMA = 'urn:ietf:params:scim:api:messages:2.0:PatchOp';
export const USER_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:User';
export const GROUP_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:Group';
export const ENTERPRISE_USER_SCHEMA = 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User';

export function scimJson(status: number, value: unknown, headers: Record<string, string> = {}): GatewayResponse {
  return { status, headers: { 'content-type': SCIM_CONTENT_TYPE, 'cache-control': 'no-store', ...headers }, json: JsonPayload.of(value) };
}

export function noContent(): GatewayResponse {
  return { status: 204, headers: { 'cache-control': 'no-store' } };
}

export interface ListWindow {
  /** 1-based, as the client asked (at least 1). */
  startIndex: number;
  count: number;
}

export function listResponse(window: ListWindow, total: number, resources: readonly unknown[]): Record<string, unknown> {
  return { schemas: [LIST_SCHEMA], totalResults: total, startIndex: window.startIndex, itemsPerPage: resources.length, Resources: resources };
}
