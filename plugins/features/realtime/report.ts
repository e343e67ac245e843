/**
 * The end of a realtime session, told to the request observers (logs, metrics, limits) as one
 * answer: status 101 for a session the upstream accepted, else 502 with the failure (refused,
 * unreachable); the reason names who closed first, with which code (1006: a dropped connection);
 * the usage is summed from the `response.done` events.
 */
import { Errors, JsonPayload, type GatewayResponse, type Kernel, type RequestContext } from '../../../core/index.js';
import type { SessionEnd } from './session.js';
import type { UpstreamTarget } from './upstream-target.js';

export function reportSession(kernel: Kernel, ctx: RequestContext, target: UpstreamTarget, end: SessionEnd): void {
  const body: Record<string, unknown> = {
    object: 'realtime.session', closed_by: end.closedBy, close_code: end.code, frames_in: end.framesIn, frames_out: end.framesOut,
  };
  const usage = end.usage.toJson();
  if (usage) body['usage'] = usage;
  ctx.reason = `realtime: closed by ${end.closedBy} with ${end.code}${end.reason ? ` (${end.reason})` : ''}`;
  ctx.outcome = { status: 101, provider: target.provider, retries: 0 };
  // A session cut mid-way still spent its tokens: it keeps 101 (and its usage), the reason tells the cut.
  if (!end.opened && end.upstreamError) ctx.streamError = Errors.badGateway(end.upstreamError, target.provider);
  const response: GatewayResponse = { status: 101, headers: {}, json: JsonPayload.of(body) };
  kernel.complete(ctx, response);
}
