/**
 * A unified (OpenAI) chat body → an Anthropic Messages request body. Pure: no I/O, no clock.
 *
 *   max_completion_tokens | max_tokens → max_tokens (required by the API: a default fills it in)
 *   stop (string | string[])           → stop_sequences
 *   temperature, top_p, top_k          → as they are (the API answers out-of-range values itself)
 *   user                               → metadata.user_id
 *   tools / functions                  → tools [{name, description, input_schema}]
 *   tool_choice                        → auto | none | required→any | {function} → {type: tool, name}
 *   parallel_tool_calls: false         → tool_choice.disable_parallel_tool_use
 *   thinking                           → passed on only when strict compliance is off
 * Fields with no Anthropic counterpart (n, seed, logprobs, penalties, response_format ...) are dropped.
 */
import type { ConfigNode } from '../../core/index.js';
import { toMessages, type ChatMessageIn } from './messages.js';
import { strictSetting } from './strict-compliance.js';
import type { MessagesRequest, ToolChoice, ToolParam } from './wire.js';

export interface RequestSettings {
  /** max_tokens sent when the client gives neither max_tokens nor max_completion_tokens. */
  defaultMaxTokens: number;
}

interface FunctionDef { name: string; description?: string; parameters?: unknown }

const EMPTY_SCHEMA = Object.freeze({ type: 'object', properties: {} });

export function toMessagesRequest(
  body: Record<string, unknown>, target: ConfigNode, settings: RequestSettings, stream: boolean,
): MessagesRequest {
  const { system, messages } = toMessages((body.messages ?? []) as ChatMessageIn[]);
  const request: MessagesRequest = {
    model: body.model as string,
    max_tokens: positive(body.max_completion_tokens) ?? positive(body.max_tokens) ?? settings.defaultMaxTokens,
    messages,
  };
  if (system !== undefined) request.system = system;

  const stop = body.stop;
  if (typeof stop === 'string') request.stop_sequences = [stop];
  else if (Array.isArray(stop) && stop.length > 0) request.stop_sequences = stop as string[];

  if (typeof body.temperature === 'number') request.temperature = body.temperature;
  if (typeof body.top_p === 'number') request.top_p = body.top_p;
  if (typeof body.top_k === 'number') request.top_k = body.top_k;
  if (typeof body.user === 'string') request.metadata = { user_id: body.user };

  const tools = toTools(body);
  if (tools) {
    request.tools = tools;
    const choice = toToolChoice(body.tool_choice ?? legacyChoice(body.function_call), body.parallel_tool_calls === false);
    if (choice) request.tool_choice = choice;
  }

  if (strictSetting(target) === false && body.thinking && typeof body.thinking === 'object') {
    request.thinking = body.thinking;
  }
  if (stream) request.stream = true;
  return request;
}

function positive(value: unknown): number | undefined {
  return typeof value === 'number' && value > 0 ? value : undefined;
}

function toTools(body: Record<string, unknown>): ToolParam[] | undefined {
  const defs: FunctionDef[] = [];
  if (Array.isArray(body.tools)) {
    for (const tool of body.tools as { type?: string; function?: FunctionDef }[]) if (tool.function) defs.push(tool.function);
  } else if (Array.isArray(body.functions)) {
    defs.push(...(body.functions as FunctionDef[]));
  }
  if (defs.length === 0) return undefined;
  return defs.map((fn) => {
    const tool: ToolParam = { name: fn.name, input_schema: fn.parameters ?? EMPTY_SCHEMA };
    if (typeof fn.description === 'string') tool.description = fn.description;
    return tool;
  });
}

/** `function_call` (deprecated) in `tool_choice` terms. */
function legacyChoice(call: unknown): unknown {
  if (call && typeof call === 'object' && typeof (call as { name?: unknown }).name === 'string') {
    return { type: 'function', function: { name: (call as { name: string }).name } };
  }
  return call;
}

function toToolChoice(choice: unknown, noParallel: boolean): ToolChoice | undefined {
  let mapped: ToolChoice | undefined;
  if (choice === 'auto') mapped = { type: 'auto' };
  else if (choice === 'none') return { type: 'none' };
  else if (choice === 'required') mapped = { type: 'any' };
  else if (choice && typeof choice === 'object') {
    const name = (choice as { function?: { name?: unknown } }).function?.name;
    if (typeof name === 'string') mapped = { type: 'tool', name };
  }
  if (noParallel) (mapped ??= { type: 'auto' }).disable_parallel_tool_use = true;
  return mapped;
}
