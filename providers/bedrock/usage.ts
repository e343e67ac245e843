/** Converse usage → unified usage. */
import { usage, type Usage } from '../../core/index.js';
import type { ConverseUsage } from './wire.js';

/**
 * Converse counts cache reads and writes apart from `inputTokens`; OpenAI's `prompt_tokens` includes
 * cached tokens (and reports the read ones in `prompt_tokens_details.cached_tokens`).
 */
export function toUsage(u: ConverseUsage | undefined): Usage {
  const read = num(u?.cacheReadInputTokens);
  const prompt = num(u?.inputTokens) + read + num(u?.cacheWriteInputTokens);
  return read > 0 ? usage(prompt, num(u?.outputTokens), { prompt_tokens_details: { cached_tokens: read } }) : usage(prompt, num(u?.outputTokens));
}

function num(n: number | undefined): number {
  return typeof n === 'number' && Number.isFinite(n) ? n : 0;
}
