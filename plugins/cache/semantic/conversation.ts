/**
 * What the semantic mode compares: the conversation's text (what is embedded) and its partition
 * (everything else that determines the answer, which must match exactly).
 */
import { sha256Hex, type CacheRequest } from '../../../core/index.js';
import { canonicalJson } from '../common/canonical-json.js';

/** Body fields holding the conversation (embedded), and format fields (ignored, as in the exact key). */
const NOT_IN_PARTITION: ReadonlySet<string> = new Set(['messages', 'prompt', 'stream', 'stream_options']);

/**
 * The text of the conversation: chat messages' text contents (string contents and text parts),
 * one per line, prefixed by role; a completion's prompt. Undefined for other endpoints, or no text.
 */
export function conversationText(request: CacheRequest, maxChars: number): string | undefined {
  const body = request.body;
  let text = '';
  if (request.endpoint === 'chatComplete' && Array.isArray(body['messages'])) {
    for (const message of body['messages'] as Record<string, unknown>[]) {
      if (message === null || typeof message !== 'object') continue;
      const content = contentText(message['content']).trim();
      if (content) text += `${String(message['role'] ?? 'user')}: ${content}\n`;
    }
  } else if (request.endpoint === 'complete') {
    const prompt = body['prompt'];
    if (typeof prompt === 'string') text = prompt;
    else if (Array.isArray(prompt) && prompt.every((p) => typeof p === 'string')) text = prompt.join('\n');
  }
  text = text.trim();
  if (!text) return undefined;
  // Bounded: embedding cost grows with the text; the tail holds the latest turn, so keep it.
  return text.length > maxChars ? text.slice(text.length - maxChars) : text;
}

function contentText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  let out = '';
  for (const part of content as Record<string, unknown>[]) {
    if (part && typeof part === 'object' && typeof part['text'] === 'string') out += (out ? ' ' : '') + part['text'];
  }
  return out;
}

/** Entries are compared only within one partition: same endpoint, provider, namespace, model and other params. */
export function partitionOf(request: CacheRequest): string {
  const material = `${request.endpoint}\n${request.identity}\n${request.namespace ?? ''}\n${canonicalJson(request.body, NOT_IN_PARTITION)}`;
  return sha256Hex(material).slice(0, 32);
}
