/**
 * A Responses request → a chat completions body, for providers without a native Responses API.
 *
 *   instructions                 → a leading system message
 *   input (string)               → one user message
 *   message items                → messages (input_text / output_text parts → text, input_image → image_url)
 *   function_call items          → an assistant message with tool_calls (consecutive calls merged)
 *   function_call_output items   → tool messages
 *   reasoning items              → dropped (provider-specific, not portable)
 *   tools (function)             → chat function tools; tool_choice {type: function, name} likewise
 *   temperature, top_p, user     → as they are
 *   max_output_tokens            → max_completion_tokens
 *   text.format                  → response_format (json_object, json_schema)
 *   reasoning.effort             → reasoning_effort
 * Anything the chat format cannot carry (built-in tools such as web_search, file inputs, item
 * references) is a 400 naming the field: it needs a provider with the native API.
 */
import { Errors } from '../../../core/index.js';
import type { CreateResponseBody } from './schemas.js';

type Item = Record<string, unknown>;
type ChatMessage = Record<string, unknown>;

const NATIVE_ONLY = 'needs a provider with a native Responses API';

/**
 * `items` is the whole conversation (previous responses first); the request's own items start at
 * `ownFrom`, so a problem there is reported as `input.N`.
 */
export function toChatBody(body: CreateResponseBody, items: readonly Item[], ownFrom: number): Record<string, unknown> {
  const messages: ChatMessage[] = [];
  if (typeof body.instructions === 'string' && body.instructions !== '') messages.push({ role: 'system', content: body.instructions });
  for (let i = 0; i < items.length; i++) {
    const path = i >= ownFrom ? `input.${i - ownFrom}` : 'previous_response_id';
    addItem(messages, items[i]!, path);
  }
  const chat: Record<string, unknown> = { model: body.model, messages };
  if (body.temperature != null) chat['temperature'] = body.temperature;
  if (body.top_p != null) chat['top_p'] = body.top_p;
  if (body.max_output_tokens != null) chat['max_completion_tokens'] = body.max_output_tokens;
  if (typeof body.user === 'string') chat['user'] = body.user;
  if (body.reasoning?.effort) chat['reasoning_effort'] = body.reasoning.effort;
  const format = responseFormat(body.text?.format as Item | undefined);
  if (format) chat['response_format'] = format;
  if (body.tools && body.tools.length > 0) {
    chat['tools'] = body.tools.map((tool, i) => chatTool(tool as Item, i));
    // OpenAI's chat API refuses parallel_tool_calls without tools.
    if (typeof body.parallel_tool_calls === 'boolean') chat['parallel_tool_calls'] = body.parallel_tool_calls;
  }
  if (body.tool_choice !== undefined) chat['tool_choice'] = toolChoice(body.tool_choice);
  if (body.stream === true) {
    chat['stream'] = true;
    chat['stream_options'] = { include_usage: true };
  }
  return chat;
}

function addItem(messages: ChatMessage[], item: Item, path: string): void {
  const type = item['type'] ?? (item['role'] !== undefined ? 'message' : undefined);
  switch (type) {
    case 'message':
      messages.push(message(item, path));
      return;
    case 'function_call': {
      const call = {
        id: requireString(item, 'call_id', path),
        type: 'function',
        function: { name: requireString(item, 'name', path), arguments: typeof item['arguments'] === 'string' ? item['arguments'] : '{}' },
      };
      const last = messages.at(-1);
      if (last && last['role'] === 'assistant' && Array.isArray(last['tool_calls'])) (last['tool_calls'] as unknown[]).push(call);
      else messages.push({ role: 'assistant', content: null, tool_calls: [call] });
      return;
    }
    case 'function_call_output': {
      const output = item['output'];
      messages.push({ role: 'tool', tool_call_id: requireString(item, 'call_id', path), content: typeof output === 'string' ? output : JSON.stringify(output ?? '') });
      return;
    }
    case 'reasoning':
      return;
    default:
      throw Errors.invalidBody(`${path}.type`, type === undefined ? 'is required (or role, for a message)' : `"${String(type)}" ${NATIVE_ONLY}`);
  }
}

const ROLES = new Set(['user', 'assistant', 'system', 'developer']);

function message(item: Item, path: string): ChatMessage {
  const role = item['role'];
  if (typeof role !== 'string' || !ROLES.has(role)) throw Errors.invalidBody(`${path}.role`, 'must be one of "user", "assistant", "system", "developer"');
  const content = item['content'];
  if (typeof content === 'string') return { role, content };
  if (!Array.isArray(content)) throw Errors.invalidBody(`${path}.content`, 'must be a string or an array of content parts');
  const parts = content.map((part: Item, j) => chatPart(part, `${path}.content.${j}`));
  // Only user turns may mix text and images; other roles carry plain text.
  if (role !== 'user' || parts.every((p) => p['type'] === 'text')) {
    return { role, content: parts.map((p) => (p['type'] === 'text' ? p['text'] : '')).join('') };
  }
  return { role, content: parts };
}

function chatPart(part: Item, path: string): Item {
  switch (part?.['type']) {
    case 'input_text':
    case 'output_text':
      return { type: 'text', text: requireString(part, 'text', path) };
    case 'refusal':
      return { type: 'text', text: requireString(part, 'refusal', path) };
    case 'input_image': {
      const url = part['image_url'];
      if (typeof url !== 'string') throw Errors.invalidBody(`${path}.image_url`, `is required (file_id images ${NATIVE_ONLY})`);
      return { type: 'image_url', image_url: part['detail'] ? { url, detail: part['detail'] } : { url } };
    }
    default:
      throw Errors.invalidBody(`${path}.type`, `"${String(part?.['type'])}" ${NATIVE_ONLY}`);
  }
}

function chatTool(tool: Item, i: number): Item {
  if (tool['type'] !== 'function') throw Errors.invalidBody(`tools.${i}.type`, `"${String(tool['type'])}" ${NATIVE_ONLY}`);
  const fn: Item = { name: tool['name'] };
  if (tool['description'] !== undefined) fn['description'] = tool['description'];
  if (tool['parameters'] !== undefined) fn['parameters'] = tool['parameters'];
  if (tool['strict'] !== undefined) fn['strict'] = tool['strict'];
  return { type: 'function', function: fn };
}

function toolChoice(choice: unknown): unknown {
  if (typeof choice === 'string') return choice;
  const object = choice as Item;
  if (object['type'] === 'function' && typeof object['name'] === 'string') return { type: 'function', function: { name: object['name'] } };
  throw Errors.invalidBody('tool_choice', `${JSON.stringify(choice)} ${NATIVE_ONLY}`);
}

function responseFormat(format: Item | undefined): Item | undefined {
  if (!format || format['type'] === 'text') return undefined;
  if (format['type'] === 'json_object') return { type: 'json_object' };
  const { type: _type, ...schema } = format;
  return { type: 'json_schema', json_schema: schema };
}

function requireString(item: Item, key: string, path: string): string {
  const value = item[key];
  if (typeof value !== 'string') throw Errors.invalidBody(`${path}.${key}`, 'is required');
  return value;
}
