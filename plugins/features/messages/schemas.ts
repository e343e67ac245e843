/**
 * The bodies of POST /v1/messages and /v1/messages/count_tokens, checked as the Messages API
 * documents them (https://docs.anthropic.com/en/api/messages): the first problem is answered 400
 * naming the field path and the rule. Fields the gateway does not read (service_tier, container,
 * mcp_servers ...) and block types it does not know pass on to a provider that speaks Messages; the
 * chat translation refuses what it cannot say (to-chat.ts).
 */
import { MAX_COUNT, type Issue } from '../../../core/index.js';

type Obj = Record<string, unknown>;

const ROLES = new Set(['user', 'assistant']);
const TOOL_CHOICES = new Set(['auto', 'any', 'tool', 'none']);
const MAX_MESSAGES = 100_000;
const MAX_TOOLS = 1024;

/** The first problem of a Messages body, or undefined. */
export function messagesIssue(body: Obj): Issue | undefined {
  return common(body, true);
}

/** The first problem of a count_tokens body (no max_tokens, no sampling), or undefined. */
export function countTokensIssue(body: Obj): Issue | undefined {
  return common(body, false);
}

function common(body: Obj, create: boolean): Issue | undefined {
  if (typeof body['model'] !== 'string' || body['model'] === '') return issue('model', 'is required: a non-empty string');
  if (create) {
    const max = body['max_tokens'];
    if (!Number.isInteger(max) || (max as number) < 1 || (max as number) > MAX_COUNT) return issue('max_tokens', 'is required: an integer >= 1');
  }
  return messagesOf(body['messages'])
    ?? systemOf(body['system'])
    ?? (create ? sampling(body) : undefined)
    ?? toolsOf(body['tools'])
    ?? toolChoiceOf(body['tool_choice'])
    ?? thinkingOf(body['thinking'], create ? (body['max_tokens'] as number) : undefined);
}

function sampling(body: Obj): Issue | undefined {
  for (const [field, max] of [['temperature', 1], ['top_p', 1]] as const) {
    const v = body[field];
    if (v !== undefined && (typeof v !== 'number' || v < 0 || v > max)) return issue(field, `must be a number from 0 to ${max}`);
  }
  const topK = body['top_k'];
  if (topK !== undefined && (!Number.isInteger(topK) || (topK as number) < 0)) return issue('top_k', 'must be an integer >= 0');
  if (body['stream'] !== undefined && typeof body['stream'] !== 'boolean') return issue('stream', 'must be a boolean');
  const stops = body['stop_sequences'];
  if (stops !== undefined) {
    if (!Array.isArray(stops)) return issue('stop_sequences', 'must be an array of strings');
    for (let i = 0; i < stops.length; i++) if (typeof stops[i] !== 'string' || stops[i] === '') return issue(`stop_sequences.${i}`, 'must be a non-empty string');
  }
  const metadata = body['metadata'];
  if (metadata !== undefined) {
    if (!isObj(metadata)) return issue('metadata', 'must be an object');
    const user = metadata['user_id'];
    if (user !== undefined && user !== null && (typeof user !== 'string' || user.length > 256)) return issue('metadata.user_id', 'must be a string of at most 256 characters');
  }
  return undefined;
}

function messagesOf(messages: unknown): Issue | undefined {
  if (!Array.isArray(messages) || messages.length === 0) return issue('messages', 'is required: a non-empty array of messages');
  if (messages.length > MAX_MESSAGES) return issue('messages', `must have at most ${MAX_MESSAGES} messages`);
  for (let i = 0; i < messages.length; i++) {
    const m = messages[i];
    const path = `messages.${i}`;
    if (!isObj(m)) return issue(path, 'must be an object with role and content');
    if (typeof m['role'] !== 'string' || !ROLES.has(m['role'])) return issue(`${path}.role`, 'must be "user" or "assistant"');
    const problem = contentOf(m['content'], `${path}.content`, m['role']);
    if (problem) return problem;
  }
  return undefined;
}

function contentOf(content: unknown, path: string, role: string): Issue | undefined {
  if (typeof content === 'string') return undefined;
  if (!Array.isArray(content)) return issue(path, 'must be a string or an array of content blocks');
  for (let j = 0; j < content.length; j++) {
    const problem = blockOf(content[j], `${path}.${j}`, role);
    if (problem) return problem;
  }
  return undefined;
}

function blockOf(block: unknown, path: string, role: string): Issue | undefined {
  if (!isObj(block) || typeof block['type'] !== 'string') return issue(`${path}.type`, 'is required: every content block has a type');
  switch (block['type']) {
    case 'text':
      return typeof block['text'] === 'string' ? undefined : issue(`${path}.text`, 'must be a string');
    case 'image':
    case 'document':
      return sourceOf(block['source'], `${path}.source`);
    case 'tool_use':
      if (role !== 'assistant') return issue(`${path}.type`, 'tool_use blocks belong to assistant messages');
      if (typeof block['id'] !== 'string' || block['id'] === '') return issue(`${path}.id`, 'must be a non-empty string');
      if (typeof block['name'] !== 'string' || block['name'] === '') return issue(`${path}.name`, 'must be a non-empty string');
      return isObj(block['input']) ? undefined : issue(`${path}.input`, 'must be an object');
    case 'tool_result': {
      if (role !== 'user') return issue(`${path}.type`, 'tool_result blocks belong to user messages');
      if (typeof block['tool_use_id'] !== 'string' || block['tool_use_id'] === '') return issue(`${path}.tool_use_id`, 'must be a non-empty string');
      if (block['is_error'] !== undefined && typeof block['is_error'] !== 'boolean') return issue(`${path}.is_error`, 'must be a boolean');
      const inner = block['content'];
      return inner === undefined ? undefined : contentOf(inner, `${path}.content`, 'user');
    }
    case 'thinking':
      if (typeof block['thinking'] !== 'string') return issue(`${path}.thinking`, 'must be a string');
      return typeof block['signature'] === 'string' ? undefined : issue(`${path}.signature`, 'must be a string');
    case 'redacted_thinking':
      return typeof block['data'] === 'string' ? undefined : issue(`${path}.data`, 'must be a string');
    default:
      return undefined;
  }
}

function sourceOf(source: unknown, path: string): Issue | undefined {
  if (!isObj(source)) return issue(path, 'must be an object with a type');
  switch (source['type']) {
    case 'base64':
      if (typeof source['media_type'] !== 'string' || source['media_type'] === '') return issue(`${path}.media_type`, 'must be a non-empty string');
      return typeof source['data'] === 'string' && source['data'] !== '' ? undefined : issue(`${path}.data`, 'must be a non-empty base64 string');
    case 'url':
      return typeof source['url'] === 'string' && /^https?:\/\//.test(source['url']) ? undefined : issue(`${path}.url`, 'must be an http(s) URL');
    case 'text':
      return typeof source['data'] === 'string' ? undefined : issue(`${path}.data`, 'must be a string');
    default:
      // file ids, content sources ...: the provider judges them.
      return typeof source['type'] === 'string' ? undefined : issue(`${path}.type`, 'is required');
  }
}

function systemOf(system: unknown): Issue | undefined {
  if (system === undefined || typeof system === 'string') return undefined;
  if (!Array.isArray(system)) return issue('system', 'must be a string or an array of text blocks');
  for (let i = 0; i < system.length; i++) {
    const b = system[i];
    if (!isObj(b) || b['type'] !== 'text') return issue(`system.${i}.type`, 'must be "text"');
    if (typeof b['text'] !== 'string') return issue(`system.${i}.text`, 'must be a string');
  }
  return undefined;
}

function toolsOf(tools: unknown): Issue | undefined {
  if (tools === undefined) return undefined;
  if (!Array.isArray(tools)) return issue('tools', 'must be an array of tools');
  if (tools.length > MAX_TOOLS) return issue('tools', `must have at most ${MAX_TOOLS} tools`);
  for (let i = 0; i < tools.length; i++) {
    const t = tools[i];
    if (!isObj(t)) return issue(`tools.${i}`, 'must be an object');
    if (typeof t['name'] !== 'string' || !/^[a-zA-Z0-9_-]{1,128}$/.test(t['name'])) return issue(`tools.${i}.name`, 'must match ^[a-zA-Z0-9_-]{1,128}$');
    // Server tools (web_search_..., bash_...) name a type and take no input_schema.
    const custom = t['type'] === undefined || t['type'] === null || t['type'] === 'custom';
    if (custom && !isObj(t['input_schema'])) return issue(`tools.${i}.input_schema`, 'is required: a JSON Schema object');
    if (t['description'] !== undefined && typeof t['description'] !== 'string') return issue(`tools.${i}.description`, 'must be a string');
  }
  return undefined;
}

function toolChoiceOf(choice: unknown): Issue | undefined {
  if (choice === undefined) return undefined;
  if (!isObj(choice) || typeof choice['type'] !== 'string' || !TOOL_CHOICES.has(choice['type'])) {
    return issue('tool_choice.type', 'must be one of auto, any, tool, none');
  }
  if (choice['type'] === 'tool' && (typeof choice['name'] !== 'string' || choice['name'] === '')) return issue('tool_choice.name', 'is required when type is "tool"');
  const noParallel = choice['disable_parallel_tool_use'];
  if (noParallel !== undefined && typeof noParallel !== 'boolean') return issue('tool_choice.disable_parallel_tool_use', 'must be a boolean');
  return undefined;
}

function thinkingOf(thinking: unknown, maxTokens: number | undefined): Issue | undefined {
  if (thinking === undefined) return undefined;
  if (!isObj(thinking)) return issue('thinking', 'must be an object');
  if (thinking['type'] === 'disabled') return undefined;
  if (thinking['type'] !== 'enabled') return issue('thinking.type', 'must be "enabled" or "disabled"');
  const budget = thinking['budget_tokens'];
  if (!Number.isInteger(budget) || (budget as number) < 1024) return issue('thinking.budget_tokens', 'must be an integer >= 1024');
  if (maxTokens !== undefined && (budget as number) >= maxTokens) return issue('thinking.budget_tokens', 'must be less than max_tokens');
  return undefined;
}

function isObj(value: unknown): value is Obj {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function issue(path: string, rule: string): Issue {
  return { path, rule };
}
