/**
 * A provider's error answer as a gateway error, for OpenAI-format APIs (inference, files,
 * fine-tuning, responses): its status kept, `provider` set.
 */
import { Errors, type GatewayError } from './errors.js';

const decoder = new TextDecoder();

/** Reads an OpenAI-style error envelope; anything else becomes a message quoting the start of the body. */
export function providerErrorFromBody(status: number, body: Uint8Array, provider: string): GatewayError {
  const text = decoder.decode(body);
  try {
    const parsed = JSON.parse(text) as { error?: unknown; message?: unknown };
    const err = parsed.error;
    if (err && typeof err === 'object') {
      const e = err as Record<string, unknown>;
      return Errors.upstream(
        status,
        typeof e['message'] === 'string' ? e['message'] : `provider ${provider} answered ${status}`,
        provider,
        typeof e['type'] === 'string' ? e['type'] : undefined,
        typeof e['code'] === 'string' ? e['code'] : e['code'] == null ? null : String(e['code']),
        typeof e['param'] === 'string' ? e['param'] : null,
      );
    }
    if (typeof err === 'string') return Errors.upstream(status, err, provider);
    if (typeof parsed.message === 'string') return Errors.upstream(status, parsed.message, provider);
  } catch {
    /* not JSON: fall through */
  }
  const excerpt = text.trim().slice(0, 200);
  return Errors.upstream(status, `provider ${provider} answered ${status}${excerpt ? `: ${excerpt}` : ''}`, provider);
}
