/**
 * OpenAI chat messages → Anthropic `system` + `messages`:
 *   - system and developer messages are lifted into the top-level `system`;
 *   - assistant `tool_calls` become `tool_use` blocks (after any thinking blocks the client sent
 *     back in `content_blocks`, which the API needs to continue a thinking turn);
 *   - tool (and legacy function) messages become `tool_result` blocks in a user turn;
 *   - consecutive turns of the same role are merged, as the API requires alternating roles.
 */
import { DEFAULT_JSON_MAX_DEPTH, Errors, jsonDepthRule, nestsDeeperThan } from '../../core/index.js';
import { toBlocks } from './content.js';
import type { Block, MessageParam, TextBlock, ToolResultBlock } from './wire.js';

/** The fields of an OpenAI chat message the mapping reads (the body validator checked the shape). */
export interface ChatMessageIn {
  role: string;
  content?: unknown;
  name?: string;
  tool_call_id?: string;
  tool_calls?: { id: string; type: string; function?: { name?: string; arguments?: string } }[];
  function_call?: { name: string; arguments?: string } | null;
  content_blocks?: unknown;
}

export interface MappedMessages {
  system?: string | TextBlock[];
  messages: MessageParam[];
}

export function toMessages(input: readonly ChatMessageIn[]): MappedMessages {
  const system: TextBlock[] = [];
  const messages: MessageParam[] = [];
  for (let i = 0; i < input.length; i++) {
    const m = input[i]!;
    switch (m.role) {
      case 'system':
      case 'developer':
        for (const block of toBlocks(m.content)) if (block.type === 'text') system.push(block as TextBlock);
        break;
      case 'user':
        append(messages, 'user', typeof m.content === 'string' ? m.content : toBlocks(m.content));
        break;
      case 'assistant': {
        const blocks = assistantBlocks(m, i);
        if (blocks.length > 0) append(messages, 'assistant', blocks);
        break;
      }
      case 'tool':
      case 'function':
        append(messages, 'user', [toolResult(m)]);
        break;
    }
  }
  const mapped: MappedMessages = { messages };
  if (system.length === 1 && system[0]!.cache_control === undefined) mapped.system = system[0]!.text;
  else if (system.length > 0) mapped.system = system;
  return mapped;
}

/** Adds a turn, merging it into the previous one when the role repeats. */
function append(messages: MessageParam[], role: 'user' | 'assistant', content: string | Block[]): void {
  const last = messages[messages.length - 1];
  if (last?.role !== role) {
    messages.push({ role, content });
    return;
  }
  const before = asBlocks(last.content);
  last.content = before.concat(asBlocks(content));
}

function asBlocks(content: string | Block[]): Block[] {
  return typeof content === 'string' ? (content === '' ? [] : [{ type: 'text', text: content }]) : content;
}

function assistantBlocks(m: ChatMessageIn, index: number): Block[] {
  const blocks: Block[] = [];
  let hasText = false;
  if (Array.isArray(m.content_blocks)) {
    for (const b of m.content_blocks as Record<string, unknown>[]) {
      if (b?.type === 'thinking' && typeof b.thinking === 'string') {
        blocks.push({ type: 'thinking', thinking: b.thinking, signature: typeof b.signature === 'string' ? b.signature : '' });
      } else if (b?.type === 'redacted_thinking' && typeof b.data === 'string') {
        blocks.push({ type: 'redacted_thinking', data: b.data });
      } else if (b?.type === 'text' && typeof b.text === 'string' && b.text !== '') {
        blocks.push({ type: 'text', text: b.text });
        hasText = true;
      }
    }
  }
  // content_blocks from a plain answer already hold the text; from a stream they hold thinking only.
  if (!hasText) for (const block of toBlocks(m.content)) blocks.push(block);
  const calls = m.tool_calls ?? [];
  for (let j = 0; j < calls.length; j++) {
    const call = calls[j]!;
    blocks.push({
      type: 'tool_use',
      id: call.id,
      name: call.function?.name ?? '',
      input: toolInput(call.function?.arguments, `messages.${index}.tool_calls.${j}.function.arguments`),
    });
  }
  if (m.function_call) {
    const path = `messages.${index}.function_call.arguments`;
    blocks.push({ type: 'tool_use', id: m.function_call.name, name: m.function_call.name, input: toolInput(m.function_call.arguments, path) });
  }
  return blocks;
}

/** Tool arguments as the object Anthropic takes; a client's malformed JSON is its own 400. */
function toolInput(args: string | undefined, path: string): Record<string, unknown> {
  if (args === undefined || args.trim() === '') return {};
  if (nestsDeeperThan(args, DEFAULT_JSON_MAX_DEPTH)) throw Errors.invalidBody(path, jsonDepthRule(DEFAULT_JSON_MAX_DEPTH));
  let parsed: unknown;
  try {
    parsed = JSON.parse(args);
  } catch {
    throw Errors.invalidBody(path, 'must be a JSON object (provider anthropic takes tool input as an object)');
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
    throw Errors.invalidBody(path, 'must be a JSON object (provider anthropic takes tool input as an object)');
  }
  return parsed as Record<string, unknown>;
}

function toolResult(m: ChatMessageIn): ToolResultBlock {
  const id = m.tool_call_id ?? m.name ?? '';
  const content = typeof m.content === 'string' ? m.content : toBlocks(m.content);
  return { type: 'tool_result', tool_use_id: id, content };
}
