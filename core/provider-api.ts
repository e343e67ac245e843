/**
 * Addressing a provider from a config node: its base URL (the credential headers of an
 * OpenAI-format API are the openai provider's contract: providers/openai/credentials.ts).
 */
import type { ConfigNode } from './config/types.js';

/** `custom_host` when set, else `fallback` (the provider's default, with its version segment); no trailing slash. */
export function baseUrlOf(node: ConfigNode, fallback: string): string {
  const base = typeof node.custom_host === 'string' ? node.custom_host : fallback;
  return base.endsWith('/') ? base.slice(0, -1) : base;
}
