/** The gateway error a stream ends with once its head is sent: failed, cut, or closed by the provider's own error event. */
import { Errors, GatewayError, providerErrorFromBody, StreamCutError, StreamErrorEvent } from '../../../core/index.js';
import { describeNetworkError } from './network-errors.js';

const encoder = new TextEncoder();

export function streamFailure(e: unknown, provider: string): GatewayError {
  if (e instanceof GatewayError) return e;
  if (e instanceof StreamCutError) return Errors.badGateway(`provider ${provider} ${e.message}`, provider);
  if (e instanceof StreamErrorEvent) return providerErrorFromBody(502, encoder.encode(e.data), provider);
  return Errors.badGateway(`provider ${provider} stream failed: ${describeNetworkError(e)}`, provider);
}
