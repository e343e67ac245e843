/** Which Bedrock model ids are Anthropic's Claude (served natively for the Messages API). */

/**
 * `anthropic.claude-…`, an inference profile `us.anthropic.claude-…` / `global.anthropic.claude-…`,
 * or an ARN whose last segment is one of these.
 */
const CLAUDE_ID = /^(?:[a-z][a-z-]*\.)?anthropic\.claude-/;

export function isBedrockClaude(model: unknown): boolean {
  if (typeof model !== 'string') return false;
  return CLAUDE_ID.test(model.slice(model.lastIndexOf('/') + 1));
}
