/**
 * Finds the JSON value in a model's answer (json-keys, json-schema guardrails): the whole text when it parses, else each fenced code block
 * (```json ... ```), else the span from the first `{` to the last `}`. Models often wrap JSON in
 * prose or fences; a check should judge the JSON, not the wrapping.
 */
import { utf8Of } from './bytes.js';

/** JSON from UTF-8 bytes, or undefined when they are not JSON. */
export function parseJsonBytes(bytes: Uint8Array): unknown {
  try {
    return JSON.parse(utf8Of(bytes));
  } catch {
    return undefined;
  }
}

const FENCE = /```[a-zA-Z]*\s*\n?([\s\S]*?)```/g;

export function extractJson(text: string): unknown[] {
  const found: unknown[] = [];
  const whole = parse(text.trim());
  if (whole !== undefined) {
    found.push(whole);
    return found;
  }
  for (const match of text.matchAll(FENCE)) {
    const value = parse(match[1]!.trim());
    if (value !== undefined) found.push(value);
  }
  if (found.length > 0) return found;
  const start = text.indexOf('{');
  const end = text.lastIndexOf('}');
  if (start >= 0 && end > start) {
    const value = parse(text.slice(start, end + 1));
    if (value !== undefined) found.push(value);
  }
  return found;
}

function parse(s: string): unknown {
  const first = s.charCodeAt(0);
  // Only objects and arrays: a bare number or string in prose is not "the JSON answer".
  if (first !== 0x7b && first !== 0x5b) return undefined;
  try {
    return JSON.parse(s);
  } catch {
    return undefined;
  }
}
