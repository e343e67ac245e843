/**
 * Unified (OpenAI) chat body → Converse request body:
 *   system / developer messages → `system` [{text}];  user, assistant, tool → `messages` with content
 *   blocks (text, image bytes from data URLs, toolUse, toolResult), consecutive same-role turns merged
 *   (Converse requires user and assistant to alternate; parallel tool results share one user turn);
 *   max_completion_tokens | max_tokens, temperature, top_p, stop → `inferenceConfig`;
 *   tools, tool_choice → `toolConfig`.
 * Anything Converse cannot carry is a 400 naming the field, before any call is made.
 */
import { DEFAULT_JSON_MAX_DEPTH, Errors, jsonDepthRule, nestsDeeperThan } from '../../core/index.js';
import type { ContentBlock, ConverseMessage, ConverseRequest, ImageFormat, InferenceConfig, ToolChoice, ToolSpec } from './wire.js';
import { PROVIDER_ID } from './target.js';

interface ContentPart {
  type?: string;
  text?: unknown;
  image_url?: string | { url?: unknown };
}

interface ToolCall {
  id?: unknown;
  function?: { name?: unknown; arguments?: unknown };
}

interface ChatMessage {
  role?: string;
  content?: string | ContentPart[] | null;
  name?: string;
  tool_call_id?: string;
  tool_calls?: ToolCall[];
}

interface FunctionTool {
  type?: string;
  function?: { name?: string; description?: string; parameters?: unknown };
}

const EMPTY_SCHEMA = Object.freeze({ type: 'object', properties: {} });
const IMAGE_DATA_URL = /^data:image\/(png|jpe?g|gif|webp);base64,/i;

export function toConverseRequest(body: Record<string, unknown>): ConverseRequest {
  const system: { text: string }[] = [];
  const messages: ConverseMessage[] = [];
  const list = body['messages'] as ChatMessage[];
  for (let i = 0; i < list.length; i++) {
    const m = list[i]!;
    const path = `messages.${i}`;
    switch (m.role) {
      case 'system':
      case 'developer':
        for (const text of texts(m.content)) if (text !== '') system.push({ text });
        break;
      case 'user':
        append(messages, 'user', userBlocks(m.content, path));
        break;
      case 'assistant':
        append(messages, 'assistant', assistantBlocks(m, path));
        break;
      case 'tool':
        append(messages, 'user', [toolResult(m.tool_call_id ?? '', m.content)]);
        break;
      case 'function': // deprecated form of a tool result, keyed by the function name
        append(messages, 'user', [toolResult(m.name ?? '', m.content)]);
        break;
    }
  }
  const request: ConverseRequest = { messages };
  if (system.length > 0) request.system = system;
  const inference = inferenceConfig(body);
  if (inference) request.inferenceConfig = inference;
  const toolConfig = toolConfiguration(body, messages);
  if (toolConfig) request.toolConfig = toolConfig;
  return request;
}

/** Adds blocks to the last message when it has the same role, else starts a new one. */
function append(messages: ConverseMessage[], role: 'user' | 'assistant', blocks: ContentBlock[]): void {
  if (blocks.length === 0) return;
  const last = messages[messages.length - 1];
  if (last && last.role === role) last.content.push(...blocks);
  else messages.push({ role, content: blocks });
}

function texts(content: ChatMessage['content']): string[] {
  if (typeof content === 'string') return [content];
  if (!Array.isArray(content)) return [];
  const out: string[] = [];
  for (const part of content) if (typeof part.text === 'string') out.push(part.text);
  return out;
}

function userBlocks(content: ChatMessage['content'], path: string): ContentBlock[] {
  if (typeof content === 'string') return [{ text: content }];
  if (!Array.isArray(content)) return [];
  const blocks: ContentBlock[] = [];
  for (let j = 0; j < content.length; j++) {
    const part = content[j]!;
    if (part.type === 'text' && typeof part.text === 'string') blocks.push({ text: part.text });
    else if (part.type === 'image_url') blocks.push(imageBlock(part.image_url, `${path}.content.${j}.image_url`));
    else throw Errors.invalidBody(`${path}.content.${j}.type`, `content part "${String(part.type)}" is not supported by provider "${PROVIDER_ID}"`);
  }
  return blocks;
}

/** Converse takes image bytes (base64 in JSON), not URLs: only data URLs can be sent. */
function imageBlock(image: ContentPart['image_url'], path: string): ContentBlock {
  const url = typeof image === 'string' ? image : image?.url;
  const match = typeof url === 'string' ? IMAGE_DATA_URL.exec(url) : null;
  if (!match) {
    throw Errors.invalidBody(`${path}.url`, `must be a base64 data URL of a png, jpeg, gif or webp image for provider "${PROVIDER_ID}"`);
  }
  const kind = match[1]!.toLowerCase();
  const format: ImageFormat = kind === 'jpg' ? 'jpeg' : (kind as ImageFormat);
  return { image: { format, source: { bytes: (url as string).slice(match[0].length) } } };
}

function assistantBlocks(m: ChatMessage, path: string): ContentBlock[] {
  const blocks: ContentBlock[] = [];
  // Converse rejects blank text blocks; an assistant turn that only called tools has none.
  for (const text of texts(m.content)) if (text.trim() !== '') blocks.push({ text });
  const calls = m.tool_calls;
  if (Array.isArray(calls)) {
    for (let j = 0; j < calls.length; j++) {
      const call = calls[j]!;
      blocks.push({
        toolUse: {
          toolUseId: String(call.id ?? ''),
          name: String(call.function?.name ?? ''),
          input: toolInput(call.function?.arguments, `${path}.tool_calls.${j}.function.arguments`),
        },
      });
    }
  }
  return blocks;
}

function toolInput(args: unknown, path: string): unknown {
  if (args === undefined || args === null || args === '') return {};
  if (typeof args !== 'string') return args;
  if (nestsDeeperThan(args, DEFAULT_JSON_MAX_DEPTH)) throw Errors.invalidBody(path, jsonDepthRule(DEFAULT_JSON_MAX_DEPTH));
  try {
    return JSON.parse(args);
  } catch {
    throw Errors.invalidBody(path, `must be JSON for provider "${PROVIDER_ID}"`);
  }
}

function toolResult(toolUseId: string, content: ChatMessage['content']): ContentBlock {
  const parts = texts(content);
  return { toolResult: { toolUseId, content: (parts.length > 0 ? parts : ['']).map((text) => ({ text })) } };
}

function inferenceConfig(body: Record<string, unknown>): InferenceConfig | undefined {
  const config: InferenceConfig = {};
  const maxTokens = body['max_completion_tokens'] ?? body['max_tokens'];
  if (typeof maxTokens === 'number') config.maxTokens = maxTokens;
  if (typeof body['temperature'] === 'number') config.temperature = body['temperature'];
  if (typeof body['top_p'] === 'number') config.topP = body['top_p'];
  const stop = body['stop'];
  if (typeof stop === 'string') config.stopSequences = [stop];
  else if (Array.isArray(stop) && stop.length > 0) config.stopSequences = stop as string[];
  for (const _ in config) return config;
  return undefined;
}

function toolConfiguration(body: Record<string, unknown>, messages: ConverseMessage[]): ConverseRequest['toolConfig'] {
  const tools = body['tools'] as FunctionTool[] | undefined;
  if (!Array.isArray(tools) || tools.length === 0) return undefined;
  const specs: ToolSpec[] = tools.map((tool) => ({
    toolSpec: {
      name: String(tool.function?.name ?? ''),
      ...(typeof tool.function?.description === 'string' ? { description: tool.function.description } : {}),
      inputSchema: { json: tool.function?.parameters ?? EMPTY_SCHEMA },
    },
  }));
  const choice = body['tool_choice'];
  if (choice === 'none') {
    // Converse has no "none": leave the tools out, unless earlier turns used them (then it requires them).
    return usesTools(messages) ? { tools: specs } : undefined;
  }
  const toolChoice = mapToolChoice(choice);
  return toolChoice ? { tools: specs, toolChoice } : { tools: specs };
}

function mapToolChoice(choice: unknown): ToolChoice | undefined {
  if (choice === 'auto') return { auto: {} };
  if (choice === 'required') return { any: {} };
  if (choice && typeof choice === 'object') {
    const name = (choice as { function?: { name?: unknown } }).function?.name;
    if (typeof name === 'string') return { tool: { name } };
  }
  return undefined;
}

function usesTools(messages: ConverseMessage[]): boolean {
  for (const m of messages) for (const block of m.content) if ('toolUse' in block || 'toolResult' in block) return true;
  return false;
}
