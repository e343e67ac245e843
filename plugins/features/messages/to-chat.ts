/**
 * A Messages request → a unified chat body, for providers that do not speak Messages. Pure.
 *
 *   system (string | text blocks)     → a system message (block texts joined with "\n")
 *   user text / image blocks          → content parts: text, image_url (base64 → data URL, url → url);
 *                                       a PDF document (base64) → a file part; a text document → text
 *   user tool_result blocks           → tool messages (tool_call_id), before the turn's other content
 *   assistant text / tool_use         → content + tool_calls (input → JSON arguments)
 *   assistant thinking blocks         → content_blocks (the gateway's chat field for thinking)
 *   tools [{name, description, input_schema}] → function tools; tool_choice auto|any|tool|none →
 *                                       auto|required|{function}|none; disable_parallel_tool_use →
 *                                       parallel_tool_calls: false
 *   max_tokens (max_completion_tokens for OpenAI's own APIs), stop_sequences → stop, temperature,
 *                                       top_p, top_k, metadata.user_id → user, stream
 *                                       (+ stream_options.include_usage, so usage can be reported)
 *   thinking                          → `thinking` (read by the Claude adapters of other clouds);
 *                                       not sent to OpenAI's own APIs, which have no such field
 * What chat cannot say is a 400 naming the block (server tools, images inside tool results ...).
 */
import { Errors } from '../../../core/index.js';
import { toDataUrl } from '../../../providers/anthropic/contract.js';

type Obj = Record<string, unknown>;
type Block = Obj & { type: string };

/** `strict`: the provider's chat API refuses fields it does not document (ProviderAdapter.strictChat). */
export function toChatBody(body: Obj, strict: boolean): Obj {
  const messages: Obj[] = [];
  const system = systemText(body['system']);
  if (system !== undefined) messages.push({ role: 'system', content: system });
  const turns = body['messages'] as { role: string; content: string | Block[] }[];
  for (let i = 0; i < turns.length; i++) {
    const turn = turns[i]!;
    if (turn.role === 'assistant') messages.push(assistantMessage(turn.content, i));
    else messages.push(...userMessages(turn.content, i));
  }

  // OpenAI's reasoning models refuse max_tokens; OpenAI-compatible hosts often know only max_tokens.
  const chat: Obj = { model: body['model'], messages, [strict ? 'max_completion_tokens' : 'max_tokens']: body['max_tokens'] };
  const stops = body['stop_sequences'];
  if (Array.isArray(stops) && stops.length > 0) chat['stop'] = stops;
  for (const field of ['temperature', 'top_p'] as const) if (typeof body[field] === 'number') chat[field] = body[field];
  if (typeof body['top_k'] === 'number' && !strict) chat['top_k'] = body['top_k'];
  const user = (body['metadata'] as Obj | undefined)?.['user_id'];
  if (typeof user === 'string') chat['user'] = user;

  const tools = body['tools'] as Obj[] | undefined;
  if (tools && tools.length > 0) {
    chat['tools'] = tools.map((tool, i) => functionTool(tool, i));
    const choice = body['tool_choice'] as Obj | undefined;
    if (choice) {
      chat['tool_choice'] = toolChoice(choice);
      if (choice['disable_parallel_tool_use'] === true && choice['type'] !== 'none') chat['parallel_tool_calls'] = false;
    }
  }
  const thinking = body['thinking'] as Obj | undefined;
  if (thinking?.['type'] === 'enabled' && !strict) chat['thinking'] = thinking;
  if (body['stream'] === true) {
    chat['stream'] = true;
    chat['stream_options'] = { include_usage: true };
  }
  return chat;
}

function systemText(system: unknown): string | undefined {
  if (typeof system === 'string') return system === '' ? undefined : system;
  if (!Array.isArray(system) || system.length === 0) return undefined;
  return (system as { text: string }[]).map((b) => b.text).join('\n');
}

function userMessages(content: string | Block[], index: number): Obj[] {
  if (typeof content === 'string') return [{ role: 'user', content }];
  const tools: Obj[] = [];
  const parts: Obj[] = [];
  for (let j = 0; j < content.length; j++) {
    const block = content[j]!;
    const path = `messages.${index}.content.${j}`;
    if (block.type === 'tool_result') tools.push(toolMessage(block, path));
    else parts.push(userPart(block, path));
  }
  // Chat wants tool results right after the assistant's calls: they come first.
  const out = tools;
  if (parts.length > 0) out.push({ role: 'user', content: parts.every((p) => p['type'] === 'text') && parts.length === 1 ? parts[0]!['text'] : parts });
  return out;
}

function userPart(block: Block, path: string): Obj {
  switch (block.type) {
    case 'text':
      return { type: 'text', text: block['text'] };
    case 'image':
      return { type: 'image_url', image_url: { url: sourceUrl(block['source'] as Obj, path) } };
    case 'document': {
      const source = block['source'] as Obj;
      if (source['type'] === 'text') return { type: 'text', text: source['data'] };
      if (source['type'] === 'base64' && source['media_type'] === 'application/pdf') {
        const file: Obj = { file_data: toDataUrl(source as { media_type: string; data: string }) };
        if (typeof block['title'] === 'string') file['filename'] = block['title'];
        return { type: 'file', file };
      }
      throw untranslatable(`${path}.source`, 'only PDF (base64) and plain-text documents are translated to chat');
    }
    default:
      throw untranslatable(`${path}.type`, `"${block.type}" blocks in user messages are not translated to chat`);
  }
}

function sourceUrl(source: Obj, path: string): string {
  if (source['type'] === 'base64') return toDataUrl(source as { media_type: string; data: string });
  if (source['type'] === 'url') return source['url'] as string;
  throw untranslatable(`${path}.source.type`, `"${String(source['type'])}" image sources are not translated to chat (use base64 or url)`);
}

function toolMessage(block: Block, path: string): Obj {
  const content = block['content'];
  let text = '';
  if (typeof content === 'string') text = content;
  else if (Array.isArray(content)) {
    const texts: string[] = [];
    for (let k = 0; k < content.length; k++) {
      const inner = content[k] as Block;
      if (inner.type !== 'text') throw untranslatable(`${path}.content.${k}.type`, 'only text is translated inside a tool_result (chat tool messages carry text)');
      texts.push(inner['text'] as string);
    }
    text = texts.join('\n');
  }
  return { role: 'tool', tool_call_id: block['tool_use_id'], content: text };
}

function assistantMessage(content: string | Block[], index: number): Obj {
  if (typeof content === 'string') return { role: 'assistant', content };
  const texts: string[] = [];
  const calls: Obj[] = [];
  const thinking: Obj[] = [];
  for (let j = 0; j < content.length; j++) {
    const block = content[j]!;
    switch (block.type) {
      case 'text':
        texts.push(block['text'] as string);
        break;
      case 'tool_use':
        calls.push({ id: block['id'], type: 'function', function: { name: block['name'], arguments: JSON.stringify(block['input'] ?? {}) } });
        break;
      case 'thinking':
        thinking.push({ type: 'thinking', thinking: block['thinking'], signature: block['signature'] });
        break;
      case 'redacted_thinking':
        thinking.push({ type: 'redacted_thinking', data: block['data'] });
        break;
      default:
        throw untranslatable(`messages.${index}.content.${j}.type`, `"${block.type}" blocks in assistant messages are not translated to chat`);
    }
  }
  const message: Obj = { role: 'assistant', content: texts.length > 0 ? texts.join('') : null };
  if (calls.length > 0) message['tool_calls'] = calls;
  if (thinking.length > 0) message['content_blocks'] = thinking;
  return message;
}

function functionTool(tool: Obj, index: number): Obj {
  const type = tool['type'];
  if (type !== undefined && type !== null && type !== 'custom') {
    throw untranslatable(`tools.${index}.type`, `server tool "${String(type)}" runs only on a provider that speaks Messages`);
  }
  const fn: Obj = { name: tool['name'], parameters: tool['input_schema'] };
  if (typeof tool['description'] === 'string') fn['description'] = tool['description'];
  return { type: 'function', function: fn };
}

function toolChoice(choice: Obj): unknown {
  switch (choice['type']) {
    case 'any':
      return 'required';
    case 'tool':
      return { type: 'function', function: { name: choice['name'] } };
    case 'none':
      return 'none';
    default:
      return 'auto';
  }
}

function untranslatable(path: string, rule: string) {
  return Errors.invalidBody(path, rule);
}
