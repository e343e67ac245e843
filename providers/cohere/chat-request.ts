/**
 * Unified (OpenAI) chat body → Cohere `POST /v2/chat` body.
 *   messages   system/developer → system; user; assistant (tool_calls, with any text as tool_plan); tool
 *   tools      the same function shape; any `strict` tool turns on `strict_tools`
 *   tool_choice none → NONE, required → REQUIRED, a named function → REQUIRED with only that tool
 *   sampling   max_completion_tokens|max_tokens → max_tokens, stop → stop_sequences, top_p → p,
 *              temperature, seed, frequency_penalty, presence_penalty, logprobs as they are
 *   response_format json_object → json_object; json_schema → json_object with its schema
 * Not translatable (Cohere has no equivalent): n > 1 and the deprecated functions/function_call are
 * refused with a 400; logit_bias, top_logprobs, parallel_tool_calls and user are dropped.
 */
import { Errors } from '../../core/index.js';

type Json = Record<string, unknown>;

interface Part { type?: string; text?: string; image_url?: unknown }
interface ToolCall { id?: string; function?: { name?: string; arguments?: string } }
interface Message { role: string; content?: string | Part[] | null; tool_call_id?: string; tool_calls?: ToolCall[] }
interface Tool { type?: string; function?: { name?: string; description?: string; parameters?: unknown; strict?: boolean | null } }

const SAME_NAME = ['temperature', 'seed', 'frequency_penalty', 'presence_penalty', 'logprobs'] as const;

export function toCohereChat(body: Json, stream: boolean): Json {
  if (typeof body['n'] === 'number' && body['n'] > 1) throw Errors.invalidBody('n', 'must be 1 for provider cohere (it answers one choice)');
  if (body['functions'] !== undefined) throw Errors.invalidBody('functions', 'is not supported by provider cohere: use tools');

  const out: Json = { model: body['model'], messages: messages(body['messages'] as Message[]) };
  if (stream) out['stream'] = true;
  const maxTokens = body['max_completion_tokens'] ?? body['max_tokens'];
  if (maxTokens != null) out['max_tokens'] = maxTokens;
  for (const key of SAME_NAME) if (body[key] != null) out[key] = body[key];
  if (body['top_p'] != null) out['p'] = body['top_p'];
  const stop = body['stop'];
  if (typeof stop === 'string') out['stop_sequences'] = [stop];
  else if (Array.isArray(stop) && stop.length > 0) out['stop_sequences'] = stop;
  const format = responseFormat(body['response_format'] as Json | undefined);
  if (format) out['response_format'] = format;
  addTools(out, body['tools'] as Tool[] | undefined, body['tool_choice']);
  return out;
}

function messages(list: Message[]): Json[] {
  const out: Json[] = new Array(list.length);
  for (let i = 0; i < list.length; i++) out[i] = message(list[i]!, i);
  return out;
}

function message(m: Message, i: number): Json {
  switch (m.role) {
    case 'system':
    case 'developer':
      return { role: 'system', content: textOf(m.content) };
    case 'user':
      return { role: 'user', content: typeof m.content === 'string' ? m.content : parts(m.content ?? [], i) };
    case 'assistant': {
      if (!m.tool_calls?.length) return { role: 'assistant', content: textOf(m.content) };
      const text = textOf(m.content);
      const calls = m.tool_calls.map((c) => ({ id: c.id, type: 'function', function: { name: c.function?.name, arguments: c.function?.arguments ?? '' } }));
      // Text written before calling tools is what Cohere calls the tool plan.
      return text ? { role: 'assistant', tool_plan: text, tool_calls: calls } : { role: 'assistant', tool_calls: calls };
    }
    case 'tool':
      return { role: 'tool', tool_call_id: m.tool_call_id, content: textOf(m.content) };
    default:
      throw Errors.invalidBody(`messages.${i}.role`, `"${m.role}" is not supported by provider cohere: use tool messages`);
  }
}

/** Content parts Cohere takes on user turns: text and image_url (vision models). */
function parts(list: Part[], i: number): Json[] {
  return list.map((p, j) => {
    if (p.type === 'text') return { type: 'text', text: p.text ?? '' };
    if (p.type === 'image_url') return { type: 'image_url', image_url: p.image_url };
    throw Errors.invalidBody(`messages.${i}.content.${j}.type`, `"${p.type}" is not supported by provider cohere`);
  });
}

function textOf(content: string | Part[] | null | undefined): string {
  if (typeof content === 'string') return content;
  if (!content) return '';
  let text = '';
  for (const p of content) if (p.type === 'text' && typeof p.text === 'string') text += p.text;
  return text;
}

function responseFormat(format: Json | undefined): Json | undefined {
  if (!format) return undefined;
  if (format['type'] === 'json_object') return { type: 'json_object' };
  if (format['type'] === 'json_schema') {
    const schema = (format['json_schema'] as Json | undefined)?.['schema'];
    return schema === undefined ? { type: 'json_object' } : { type: 'json_object', json_schema: schema };
  }
  return undefined;
}

function addTools(out: Json, tools: Tool[] | undefined, choice: unknown): void {
  if (choice === 'none') out['tool_choice'] = 'NONE';
  if (!tools?.length) return;
  let chosen = tools;
  if (choice === 'required') out['tool_choice'] = 'REQUIRED';
  else if (choice && typeof choice === 'object') {
    // Cohere cannot name the tool to call: require a call and offer only that tool.
    const name = (choice as { function?: { name?: string } }).function?.name;
    chosen = tools.filter((t) => t.function?.name === name);
    out['tool_choice'] = 'REQUIRED';
  }
  let strict = false;
  out['tools'] = chosen.map((t) => {
    const f = t.function ?? {};
    if (f.strict === true) strict = true;
    const fn: Json = { name: f.name };
    if (f.description !== undefined) fn['description'] = f.description;
    if (f.parameters !== undefined) fn['parameters'] = f.parameters;
    return { type: 'function', function: fn };
  });
  if (strict) out['strict_tools'] = true;
}
