/**
 * One playground request: a chat completion routed by the config the person typed (a JSON object,
 * or a stored config's id or slug, sent as `x-gw-config`), its answer streamed into `onText`.
 */
import type { Api } from '../../api';
import { errorOf, parseJsonText } from '../../api';
import { parseConfig } from '../configs/config-editor';
import { streamEvents, textOf } from './sse';

export interface PlaygroundRequest {
  config: string;
  model: string;
  message: string;
  stream: boolean;
}

export interface PlaygroundAnswer {
  status: number;
  headers: Array<[string, string]>;
  hookResults?: unknown;
  usage?: unknown;
}

export async function send(api: Api, request: PlaygroundRequest, onText: (text: string) => void, signal: AbortSignal): Promise<PlaygroundAnswer> {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (request.config.trim()) headers['x-gw-config'] = configHeader(request.config);
  const body: Record<string, unknown> = { messages: [{ role: 'user', content: request.message }], stream: request.stream };
  if (request.model.trim()) body['model'] = request.model.trim();
  if (request.stream) body['stream_options'] = { include_usage: true };
  const res = await api.fetch('/v1/chat/completions', { method: 'POST', headers, body: JSON.stringify(body), signal });
  const answer: PlaygroundAnswer = { status: res.status, headers: [...res.headers.entries()] };
  const streamed = (res.headers.get('content-type') ?? '').startsWith('text/event-stream');
  if (streamed && res.body) {
    for await (const event of streamEvents(res.body)) {
      if (event['error']) throw errorOf(res.status, event);
      onText(textOf(event));
      if (event['hook_results']) answer.hookResults = event['hook_results'];
      if (event['usage']) answer.usage = event['usage'];
    }
    return answer;
  }
  const text = await res.text();
  const value = parseJsonText(text) as Record<string, any> | undefined;
  if (value?.['hook_results']) answer.hookResults = value['hook_results'];
  if (!res.ok) throw Object.assign(errorOf(res.status, value, text), { answer });
  onText(textOf(value ?? {}));
  answer.usage = value?.['usage'];
  return answer;
}

/** A JSON object is sent compact (headers take one line); anything else is a stored config's id or slug. */
export function configHeader(text: string): string {
  const trimmed = text.trim();
  if (!trimmed.startsWith('{')) return trimmed;
  const config = parseConfig(trimmed);
  if (typeof config === 'string') throw new Error(config);
  return JSON.stringify(config);
}

