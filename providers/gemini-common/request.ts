/**
 * Unified (OpenAI) chat body → Gemini `generateContent` body.
 *   system/developer → systemInstruction; user/assistant → contents (roles user/model) with parts
 *   (text, inlineData from data URLs, fileData from http(s)/gs URLs, functionCall, functionResponse);
 *   tools, tool_choice and sampling fields → gemini-options.ts. Consecutive turns of one role are
 *   merged, as Gemini expects the function responses of one turn together.
 */
import { DEFAULT_JSON_MAX_DEPTH, Errors, jsonDepthRule, nestsDeeperThan } from '../../core/index.js';
import { functionCallingConfig, functionDeclarations, generationConfig } from './options.js';

type Json = Record<string, unknown>;

export interface GeminiPart {
  text?: string;
  inlineData?: { mimeType: string; data: string };
  fileData?: { mimeType: string; fileUri: string };
  functionCall?: { name: string; args: unknown };
  functionResponse?: { name: string; response: unknown };
}

export interface GeminiContent {
  role: 'user' | 'model';
  parts: GeminiPart[];
}

/** `provider` names the target's provider in the 400s of what Gemini cannot take. */
export function toGeminiRequest(body: Json, provider: string): Json {
  const messages = Array.isArray(body['messages']) ? (body['messages'] as Json[]) : [];
  const system: GeminiPart[] = [];
  const contents: GeminiContent[] = [];
  const toolNames = new Map<string, string>();
  for (let i = 0; i < messages.length; i++) {
    const m = messages[i]!;
    switch (m['role']) {
      case 'system':
      case 'developer':
        for (const part of contentParts(m['content'], i, provider)) if (part.text !== undefined) system.push(part);
        break;
      case 'user':
        append(contents, 'user', contentParts(m['content'], i, provider));
        break;
      case 'assistant':
        append(contents, 'model', assistantParts(m, i, toolNames, provider));
        break;
      case 'tool': {
        const name = toolNames.get(String(m['tool_call_id'])) ?? (typeof m['name'] === 'string' ? m['name'] : undefined);
        if (name === undefined) throw Errors.invalidBody(`messages.${i}.tool_call_id`, 'does not match a tool call of an earlier assistant message');
        append(contents, 'user', [{ functionResponse: { name, response: responseObject(m['content']) } }]);
        break;
      }
      case 'function':
        append(contents, 'user', [{ functionResponse: { name: String(m['name']), response: responseObject(m['content']) } }]);
        break;
      default:
        throw Errors.invalidBody(`messages.${i}.role`, `is not supported by provider ${provider}`);
    }
  }
  if (contents.length === 0) throw Errors.invalidBody('messages', `must contain a user or assistant message for provider ${provider}`);

  const out: Json = { contents };
  if (system.length > 0) out['systemInstruction'] = { parts: system };
  const tools = functionDeclarations(body);
  if (tools) out['tools'] = [{ functionDeclarations: tools }];
  const toolConfig = functionCallingConfig(body['tool_choice'] ?? body['function_call']);
  if (toolConfig) out['toolConfig'] = { functionCallingConfig: toolConfig };
  const generation = generationConfig(body);
  if (generation) out['generationConfig'] = generation;
  return out;
}

function append(contents: GeminiContent[], role: 'user' | 'model', parts: GeminiPart[]): void {
  if (parts.length === 0) return;
  const last = contents[contents.length - 1];
  if (last && last.role === role) last.parts.push(...parts);
  else contents.push({ role, parts });
}

function contentParts(content: unknown, i: number, provider: string): GeminiPart[] {
  if (typeof content === 'string') return content === '' ? [] : [{ text: content }];
  if (!Array.isArray(content)) return [];
  const parts: GeminiPart[] = [];
  for (let j = 0; j < content.length; j++) {
    const part = content[j] as Json;
    const path = `messages.${i}.content.${j}`;
    switch (part['type']) {
      case 'text':
        if (typeof part['text'] === 'string' && part['text'] !== '') parts.push({ text: part['text'] });
        break;
      case 'image_url': {
        const image = part['image_url'] as Json | string | undefined;
        const url = typeof image === 'string' ? image : image?.['url'];
        if (typeof url !== 'string') throw Errors.invalidBody(`${path}.image_url.url`, 'is required');
        parts.push(mediaPart(url, `${path}.image_url.url`));
        break;
      }
      case 'input_audio': {
        const audio = part['input_audio'] as Json | undefined;
        if (typeof audio?.['data'] !== 'string') throw Errors.invalidBody(`${path}.input_audio.data`, 'is required');
        parts.push({ inlineData: { mimeType: `audio/${audio['format'] === 'mp3' ? 'mp3' : 'wav'}`, data: audio['data'] } });
        break;
      }
      case 'file': {
        const file = part['file'] as Json | undefined;
        const data = file?.['file_data'];
        if (typeof data !== 'string') throw Errors.invalidBody(`${path}.file.file_data`, `is required (a data URL) for provider ${provider}`);
        parts.push(mediaPart(data, `${path}.file.file_data`));
        break;
      }
      default:
        throw Errors.invalidBody(`${path}.type`, `"${String(part['type'])}" is not supported by provider ${provider}`);
    }
  }
  return parts;
}

const DATA_URL = /^data:([^;,]+)(?:;[^,]*)?;base64,(.*)$/s;
const EXTENSION_TYPES: Readonly<Record<string, string>> = {
  png: 'image/png', jpg: 'image/jpeg', jpeg: 'image/jpeg', gif: 'image/gif', webp: 'image/webp', heic: 'image/heic',
  pdf: 'application/pdf', mp3: 'audio/mp3', wav: 'audio/wav', mp4: 'video/mp4', txt: 'text/plain',
};

/** A data URL becomes inline bytes; an http(s) or gs:// URL a file reference (type guessed from the extension). */
function mediaPart(url: string, path: string): GeminiPart {
  if (url.startsWith('data:')) {
    const match = DATA_URL.exec(url);
    if (!match) throw Errors.invalidBody(path, 'must be a base64 data URL (data:<type>;base64,...)');
    return { inlineData: { mimeType: match[1]!, data: match[2]! } };
  }
  if (/^(https?|gs):\/\//.test(url)) {
    const extension = /\.([a-z0-9]+)(?:[?#].*)?$/i.exec(url)?.[1]?.toLowerCase();
    return { fileData: { mimeType: (extension && EXTENSION_TYPES[extension]) || 'image/jpeg', fileUri: url } };
  }
  throw Errors.invalidBody(path, 'must be a data URL, an http(s) URL or a gs:// URI');
}

function assistantParts(m: Json, i: number, toolNames: Map<string, string>, provider: string): GeminiPart[] {
  const parts = contentParts(m['content'], i, provider);
  const calls = m['tool_calls'];
  if (Array.isArray(calls)) {
    for (let j = 0; j < calls.length; j++) {
      const call = calls[j] as { id?: unknown; function?: { name?: unknown; arguments?: unknown } };
      const name = call.function?.name;
      if (typeof name !== 'string') throw Errors.invalidBody(`messages.${i}.tool_calls.${j}.function.name`, 'is required');
      if (typeof call.id === 'string') toolNames.set(call.id, name);
      parts.push({ functionCall: { name, args: parseArguments(call.function?.arguments, `messages.${i}.tool_calls.${j}.function.arguments`) } });
    }
  }
  const legacy = m['function_call'] as { name?: unknown; arguments?: unknown } | null | undefined;
  if (legacy && typeof legacy.name === 'string') {
    parts.push({ functionCall: { name: legacy.name, args: parseArguments(legacy.arguments, `messages.${i}.function_call.arguments`) } });
  }
  return parts;
}

function parseArguments(args: unknown, path: string): unknown {
  if (args === undefined || args === '') return {};
  if (typeof args !== 'string') return args;
  if (nestsDeeperThan(args, DEFAULT_JSON_MAX_DEPTH)) throw Errors.invalidBody(path, jsonDepthRule(DEFAULT_JSON_MAX_DEPTH));
  try {
    return JSON.parse(args);
  } catch {
    throw Errors.invalidBody(path, 'must be a JSON string');
  }
}

/** Gemini wants an object: a JSON object result is passed as is, anything else wrapped as `{content}`. */
function responseObject(content: unknown): unknown {
  let text = content;
  if (Array.isArray(content)) text = content.map((p) => (typeof (p as Json)['text'] === 'string' ? (p as Json)['text'] : '')).join('');
  if (typeof text === 'string') {
    try {
      const parsed: unknown = JSON.parse(text);
      if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) return parsed;
    } catch {
      /* plain text result */
    }
  }
  return { content: text ?? null };
}
