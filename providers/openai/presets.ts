/**
 * OpenAI-compatible hosts served by the openai adapter under their own provider ids: one entry
 * each (base URL and auth style), no copied adapters. `custom_host` still overrides the base.
 *
 * auth: `bearer` — an `api_key` is required (sent as `Authorization: Bearer`);
 *       `none`   — no key needed (one given is still sent as a bearer token).
 * A preset without `baseUrl` has no public host: its targets must set `custom_host`.
 */
export interface OpenAICompatiblePreset {
  readonly id: string;
  readonly baseUrl?: string;
  readonly auth: 'bearer' | 'none';
}

export const OPENAI_COMPATIBLE_PRESETS: readonly OpenAICompatiblePreset[] = Object.freeze([
  { id: 'groq', baseUrl: 'https://api.groq.com/openai/v1', auth: 'bearer' },
  { id: 'together-ai', baseUrl: 'https://api.together.xyz/v1', auth: 'bearer' },
  { id: 'mistral-ai', baseUrl: 'https://api.mistral.ai/v1', auth: 'bearer' },
  { id: 'deepseek', baseUrl: 'https://api.deepseek.com', auth: 'bearer' },
  { id: 'fireworks-ai', baseUrl: 'https://api.fireworks.ai/inference/v1', auth: 'bearer' },
  { id: 'openrouter', baseUrl: 'https://openrouter.ai/api/v1', auth: 'bearer' },
  // Perplexity serves /chat/completions at the host root (no version segment).
  { id: 'perplexity-ai', baseUrl: 'https://api.perplexity.ai', auth: 'bearer' },
  { id: 'x-ai', baseUrl: 'https://api.x.ai/v1', auth: 'bearer' },
  { id: 'ollama', baseUrl: 'http://127.0.0.1:11434/v1', auth: 'none' },
  // Self-hosted only; `vllm serve --api-key` makes a key necessary, which the server then checks.
  { id: 'vllm', auth: 'none' },
] as const);
