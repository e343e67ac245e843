/**
 * The session cookie as a credential, on `onRequest` at `Stage.BEFORE_AUTH` (a principal set there
 * is trusted by auth.api-key). It applies to control-plane routes only (inference takes keys) and
 * only when no `x-gw-api-key` is sent (an explicit key wins). A session is refused with 401 when it
 * is unknown or ended, past its expiry, or older than the organisation's
 * `session_settings.max_session_ttl`, or when its person has been deactivated since (401
 * person_deactivated; the session works again if they are reactivated before it expires); a
 * state-changing request from another origin is refused with 403.
 */
import { Errors, type Clock, type RequestContext } from '../../../core/index.js';
import type { Directory, OrgSettings } from '../../admin/workspaces/contract.js';
import { readCookie, SESSION_COOKIE } from './cookies.js';
import { unauthorized } from './oidc.js';
import { WORKSPACE_HEADER } from '../common/workspace-choice.js';
import { personPrincipal } from './person-principal.js';
import type { SessionStore } from './sessions.js';

export interface SessionAuthDeps {
  sessions: SessionStore;
  directory: () => Directory;
  settings: () => OrgSettings;
  clock: Clock;
  memberScopes: readonly string[];
}

const SAFE_METHODS: ReadonlySet<string> = new Set(['GET', 'HEAD', 'OPTIONS']);

/** The organisation's `session_settings.max_session_ttl` in seconds, when set. */
export function maxSessionTtl(settings: Readonly<Record<string, unknown>>): number | undefined {
  const group = settings['session_settings'];
  const value = group && typeof group === 'object' ? (group as Record<string, unknown>)['max_session_ttl'] : undefined;
  return typeof value === 'number' && value > 0 ? value : undefined;
}

export function sessionAuth(deps: SessionAuthDeps): (ctx: RequestContext) => Promise<void> {
  return async (ctx) => {
    if (ctx.principal || ctx.route.endpoint || ctx.request.headers['x-gw-api-key']) return;
    const token = readCookie(ctx.request, SESSION_COOKIE);
    if (!token) return;
    const session = await deps.sessions.byToken(token);
    if (!session) throw unauthorized('the session has ended or is unknown: sign in again (GET /v1/sso/login)', 'session_unknown');
    const now = deps.clock.now();
    const limit = maxSessionTtl(await deps.settings().get(undefined, session.organisation_id));
    if (session.expires_at <= now || (limit !== undefined && now - session.created_at > limit * 1000)) {
      await deps.sessions.end(session.id);
      throw unauthorized(limit !== undefined && now - session.created_at > limit * 1000
        ? `the session is older than the organisation's session_settings.max_session_ttl (${limit} seconds): sign in again`
        : 'the session has expired: sign in again', 'session_expired');
    }
    if (!SAFE_METHODS.has(ctx.request.method) && crossOrigin(ctx)) {
      throw Errors.forbidden('a session cookie is not accepted on a state-changing request from another origin');
    }
    ctx.principal = await personPrincipal(deps.directory(), {
      keyId: `session:${session.id}`, via: 'session', organisationId: session.organisation_id, userId: session.user_id,
      workspace: ctx.request.headers[WORKSPACE_HEADER], memberScopes: deps.memberScopes,
    });
  };
}

/** SameSite=Lax keeps cross-site requests out; this keeps out other origins of the same site. */
function crossOrigin(ctx: RequestContext): boolean {
  const origin = ctx.request.headers['origin'];
  if (origin === undefined || origin === 'null') return origin === 'null';
  try {
    return new URL(origin).host !== ctx.request.headers['host'];
  } catch {
    return true;
  }
}
