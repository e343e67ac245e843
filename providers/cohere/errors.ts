/** Cohere's error body is `{"id": "...", "message": "..."}`; anything else is quoted. */
import { Errors, type GatewayError } from '../../core/index.js';

const decoder = new TextDecoder();

export function cohereError(status: number, body: Uint8Array, provider: string): GatewayError {
  const text = decoder.decode(body);
  try {
    const parsed = JSON.parse(text) as { message?: unknown; error?: unknown };
    if (typeof parsed.message === 'string' && parsed.message !== '') return Errors.upstream(status, parsed.message, provider);
    // Hosts in front of Cohere models (Azure AI) may answer with an OpenAI-style envelope.
    const err = parsed.error as { message?: unknown; type?: unknown; code?: unknown } | string | undefined;
    if (typeof err === 'string') return Errors.upstream(status, err, provider);
    if (err && typeof err.message === 'string') {
      return Errors.upstream(status, err.message, provider, typeof err.type === 'string' ? err.type : undefined, err.code == null ? null : String(err.code));
    }
  } catch {
    /* not JSON */
  }
  const excerpt = text.trim().slice(0, 200);
  return Errors.upstream(status, `provider ${provider} answered ${status}${excerpt ? `: ${excerpt}` : ''}`, provider);
}
