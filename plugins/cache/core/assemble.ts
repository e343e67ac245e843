/**
 * Turns the events of a complete unified stream (`chat.completion.chunk` or `text_completion`
 * chunks, then `[DONE]`) into the non-stream answer the provider would have given: content and
 * refusal text joined, tool calls merged by index (id and name set, arguments joined, as the
 * openai SDK merges them), thinking blocks merged by index, logprobs joined, finish reasons and
 * usage kept. A stream without `[DONE]`, or with an error event, gives undefined: never stored.
 */
import type { SseEvent } from '../../../core/index.js';

type Json = Record<string, unknown>;

interface ToolCallAcc {
  id: string;
  type: string;
  function: { name: string; arguments: string };
}

interface ChoiceAcc {
  index: number;
  text: string;
  sawText: boolean;
  refusal: string | undefined;
  toolCalls: Map<number, ToolCallAcc>;
  blocks: Map<number, Json>;
  logprobs: unknown[] | undefined;
  finishReason: unknown;
}

/** Top-level chunk fields carried over to the answer. */
const HEAD_FIELDS = ['id', 'created', 'model', 'system_fingerprint', 'service_tier', 'provider'] as const;

export function assembleAnswer(events: readonly SseEvent[]): Json | undefined {
  const last = events[events.length - 1];
  if (!last || last.data.trim() !== '[DONE]') return undefined;
  const head: Json = {};
  const choices = new Map<number, ChoiceAcc>();
  let kind: string | undefined;
  let usage: unknown;
  for (let i = 0; i < events.length - 1; i++) {
    let chunk: Json;
    try {
      chunk = JSON.parse(events[i]!.data) as Json;
    } catch {
      return undefined;
    }
    if (chunk === null || typeof chunk !== 'object' || 'error' in chunk) return undefined;
    const object = chunk['object'];
    if (object !== 'chat.completion.chunk' && object !== 'text_completion') return undefined;
    if (kind !== undefined && kind !== object) return undefined;
    kind = object;
    for (const field of HEAD_FIELDS) if (head[field] === undefined && chunk[field] != null) head[field] = chunk[field];
    if (chunk['usage'] != null) usage = chunk['usage'];
    const list = chunk['choices'];
    if (!Array.isArray(list)) continue;
    for (const item of list as Json[]) addChoice(choices, item, kind === 'chat.completion.chunk');
  }
  if (kind === undefined || choices.size === 0) return undefined;
  const ordered = [...choices.values()].sort((a, b) => a.index - b.index);
  const answer: Json = {
    id: head['id'],
    object: kind === 'chat.completion.chunk' ? 'chat.completion' : 'text_completion',
    created: head['created'],
    model: head['model'],
  };
  for (const field of HEAD_FIELDS.slice(3)) if (head[field] !== undefined) answer[field] = head[field];
  answer['choices'] = ordered.map(kind === 'chat.completion.chunk' ? chatChoice : textChoice);
  if (usage !== undefined) answer['usage'] = usage;
  return answer;
}

function addChoice(choices: Map<number, ChoiceAcc>, item: Json, chat: boolean): void {
  if (item === null || typeof item !== 'object') return;
  const index = typeof item['index'] === 'number' ? item['index'] : 0;
  let acc = choices.get(index);
  if (!acc) {
    acc = { index, text: '', sawText: false, refusal: undefined, toolCalls: new Map(), blocks: new Map(), logprobs: undefined, finishReason: null };
    choices.set(index, acc);
  }
  if (item['finish_reason'] != null) acc.finishReason = item['finish_reason'];
  const logprobs = (item['logprobs'] as Json | null | undefined)?.['content'];
  if (Array.isArray(logprobs)) (acc.logprobs ??= []).push(...logprobs);
  if (!chat) {
    if (typeof item['text'] === 'string') acc.text += item['text'];
    return;
  }
  const delta = item['delta'] as Json | undefined;
  if (!delta || typeof delta !== 'object') return;
  if (typeof delta['content'] === 'string') {
    acc.text += delta['content'];
    acc.sawText = true;
  }
  if (typeof delta['refusal'] === 'string') acc.refusal = (acc.refusal ?? '') + delta['refusal'];
  if (Array.isArray(delta['tool_calls'])) for (const call of delta['tool_calls'] as Json[]) addToolCall(acc, call);
  if (Array.isArray(delta['content_blocks'])) {
    const blocks = delta['content_blocks'] as Json[];
    for (let i = 0; i < blocks.length; i++) addBlock(acc, blocks[i]!, i);
  }
}

function addToolCall(acc: ChoiceAcc, call: Json): void {
  if (call === null || typeof call !== 'object') return;
  const index = typeof call['index'] === 'number' ? call['index'] : acc.toolCalls.size;
  let tool = acc.toolCalls.get(index);
  if (!tool) {
    tool = { id: '', type: 'function', function: { name: '', arguments: '' } };
    acc.toolCalls.set(index, tool);
  }
  if (typeof call['id'] === 'string') tool.id = call['id'];
  if (typeof call['type'] === 'string') tool.type = call['type'];
  const fn = call['function'] as Json | undefined;
  if (fn && typeof fn === 'object') {
    if (typeof fn['name'] === 'string' && fn['name'] !== '') tool.function.name = fn['name'];
    if (typeof fn['arguments'] === 'string') tool.function.arguments += fn['arguments'];
  }
}

/** Blocks merge by their `index`: string fields are joined (thinking text, signature), others set. */
function addBlock(acc: ChoiceAcc, block: Json, position: number): void {
  if (block === null || typeof block !== 'object') return;
  const index = typeof block['index'] === 'number' ? block['index'] : acc.blocks.size + position;
  const merged = acc.blocks.get(index);
  if (!merged) {
    const { index: _index, ...rest } = block;
    acc.blocks.set(index, rest);
    return;
  }
  for (const [key, value] of Object.entries(block)) {
    if (key === 'index') continue;
    merged[key] = typeof value === 'string' && typeof merged[key] === 'string' && key !== 'type' ? merged[key] + value : value;
  }
}

function chatChoice(acc: ChoiceAcc): Json {
  const message: Json = {
    role: 'assistant',
    content: acc.sawText ? acc.text : acc.toolCalls.size > 0 ? null : '',
    refusal: acc.refusal ?? null,
  };
  if (acc.toolCalls.size > 0) message['tool_calls'] = [...acc.toolCalls.entries()].sort((a, b) => a[0] - b[0]).map(([, t]) => t);
  if (acc.blocks.size > 0) message['content_blocks'] = [...acc.blocks.entries()].sort((a, b) => a[0] - b[0]).map(([, b]) => b);
  return { index: acc.index, message, logprobs: acc.logprobs ? { content: acc.logprobs } : null, finish_reason: acc.finishReason };
}

function textChoice(acc: ChoiceAcc): Json {
  return { text: acc.text, index: acc.index, logprobs: null, finish_reason: acc.finishReason };
}
