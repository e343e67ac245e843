/**
 * `GET /v1/console/me`: the caller as the gateway sees them, so the console can greet them and keep
 * its menu to what their rights allow. It tells the caller only about themselves.
 */
import { noStoreJson, principalOf, type RouteDef } from '../../../core/index.js';

export const ME_PATH = '/v1/console/me';

export const meRoute: RouteDef = {
  method: 'GET', path: ME_PATH, body: 'none',
  handler: async (ctx) => {
    const principal = principalOf(ctx);
    return noStoreJson(200, {
      object: 'console_session',
      sign_in: principal['via'] === 'session' ? 'sso' : 'api_key',
      key_id: principal.keyId,
      type: principal.type,
      role: principal.role,
      organisation_id: principal.organisationId,
      workspace_id: principal.workspaceId,
      user_id: principal.userId,
      scopes: principal.scopes,
    });
  },
};
