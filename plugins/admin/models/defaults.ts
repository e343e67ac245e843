/**
 * Models every integration of a provider offers without listing them (`integration-models` add to
 * these, or hide one with `enabled: false`). Deliberately short: the common current models per
 * provider; the plugin option `defaultModels` replaces a provider's list.
 */
export const DEFAULT_MODELS: Readonly<Record<string, readonly string[]>> = Object.freeze({
  openai: ['gpt-4o', 'gpt-4o-mini', 'gpt-4.1', 'gpt-4.1-mini', 'gpt-4.1-nano', 'o3', 'o3-mini', 'o4-mini', 'text-embedding-3-small', 'text-embedding-3-large', 'omni-moderation-latest'],
  anthropic: ['claude-opus-4-0', 'claude-sonnet-4-0', 'claude-3-7-sonnet-latest', 'claude-3-5-haiku-latest'],
  'azure-openai': [],
  bedrock: ['anthropic.claude-3-5-sonnet-20240620-v1:0', 'anthropic.claude-3-haiku-20240307-v1:0', 'amazon.titan-embed-text-v2:0', 'cohere.rerank-v3-5:0'],
  'vertex-ai': ['gemini-2.0-flash', 'gemini-1.5-pro', 'gemini-1.5-flash'],
  google: ['gemini-2.0-flash', 'gemini-1.5-pro', 'gemini-1.5-flash', 'text-embedding-004'],
  cohere: ['command-r-plus', 'command-r', 'embed-english-v3.0', 'rerank-v3.5'],
  voyage: ['voyage-3', 'voyage-3-lite', 'rerank-2'],
});
