/** Voyage's error body is `{"detail": "..."}` (a list of `{msg}` for a malformed request). */
import { Errors, type GatewayError } from '../../core/index.js';

const decoder = new TextDecoder();

export function voyageError(status: number, body: Uint8Array, provider: string): GatewayError {
  const text = decoder.decode(body);
  try {
    const detail = (JSON.parse(text) as { detail?: unknown }).detail;
    if (typeof detail === 'string' && detail !== '') return Errors.upstream(status, detail, provider);
    if (Array.isArray(detail)) {
      const messages = detail.map((d) => (d && typeof d === 'object' && typeof d.msg === 'string' ? d.msg : JSON.stringify(d)));
      return Errors.upstream(status, messages.join('; '), provider);
    }
  } catch {
    /* not JSON */
  }
  const excerpt = text.trim().slice(0, 200);
  return Errors.upstream(status, `provider ${provider} answered ${status}${excerpt ? `: ${excerpt}` : ''}`, provider);
}
