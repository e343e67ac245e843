/**
 * The errors a resolution answers. Each names the reference (and its manager), never the value
 * nor what the manager answered beyond its status and error type.
 */
import { GatewayError } from '../../../core/index.js';

/** The requester's workspace is not among the reference's allowed workspaces. */
export function notAllowedIn(slug: string, workspaceId: string): GatewayError {
  return new GatewayError({
    status: 403, code: 'secret_reference_forbidden', retryable: false,
    message: `secret reference "${slug}" is not allowed in workspace ${workspaceId}`,
  });
}

/** The manager did not give the secret: 502, the gateway's upstream failed it. */
export function unavailable(slug: string, manager: string, reason: string): GatewayError {
  return new GatewayError({
    status: 502, code: 'secret_reference_unavailable',
    message: `secret reference "${slug}" (${manager}) could not be resolved: ${reason}`,
  });
}

/** The outbound host rules refused the manager's address: the refusal, naming the reference. */
export function managerHostDenied(slug: string, manager: string, refusal: GatewayError): GatewayError {
  return new GatewayError({
    status: refusal.status, code: refusal.code, type: refusal.type, retryable: false,
    message: `secret reference "${slug}" (${manager}): ${refusal.message}`,
  });
}
