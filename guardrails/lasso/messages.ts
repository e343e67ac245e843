/** The conversation Lasso classifies: the request's messages as text, plus the answer on output phases. */
import type { CheckInput } from '../../core/index.js';

export interface LassoMessage {
  role: string;
  content: string;
}

export function conversationOf(input: CheckInput): LassoMessage[] {
  const json = input.request.json;
  const messages: LassoMessage[] = [];
  if (Array.isArray(json['messages'])) {
    for (const m of json['messages'] as unknown[]) {
      if (!m || typeof m !== 'object') continue;
      const { role, content } = m as { role?: unknown; content?: unknown };
      messages.push({ role: typeof role === 'string' ? role : 'user', content: textOf(content) });
    }
  } else if (input.request.text) {
    messages.push({ role: 'user', content: input.request.text });
  }
  if (input.response) messages.push({ role: 'assistant', content: input.response.text });
  return messages;
}

/** A message content as text: a string, or the text parts of a multimodal array. */
function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  let text = '';
  for (const part of content) {
    if (part && typeof part === 'object' && (part as { type?: unknown }).type === 'text') {
      const t = (part as { text?: unknown }).text;
      if (typeof t === 'string') text += (text ? '\n' : '') + t;
    }
  }
  return text;
}
