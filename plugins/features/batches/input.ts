/**
 * One input line of a batch: `{custom_id, method, url, body}` as in the OpenAI batch format. The
 * checks here fail the whole batch (as OpenAI does); what the endpoint thinks of `body` is decided
 * when the line runs (a 400 lands in the error file).
 */
import { jsonDepthRule, nestsDeeperThan } from '../../../core/index.js';
import type { RawLine } from './jsonl.js';

export interface ParsedLine {
  no: number;
  customId: string;
  body: Record<string, unknown>;
}

/** An item of the batch's `errors.data`. */
export interface LineError {
  code: string;
  message: string;
  param: string | null;
  line: number | null;
}

/** Blank lines are not requests (a trailing newline is common). */
export function isBlank(line: RawLine): boolean {
  return 'text' in line && line.text.trim() === '';
}

export function parseLine(raw: RawLine, endpoint: string, maxJsonDepth: number): ParsedLine | LineError {
  if ('error' in raw) {
    return raw.error === 'invalid_utf8'
      ? lineError(raw.no, 'invalid_encoding', 'line is not valid UTF-8')
      : lineError(raw.no, 'line_too_long', 'line is longer than the largest accepted request');
  }
  // Before parsing: a line's body is walked recursively later (validation, re-serialising).
  if (nestsDeeperThan(raw.text, maxJsonDepth)) return lineError(raw.no, 'invalid_json_line', `line: ${jsonDepthRule(maxJsonDepth)}`);
  let value: unknown;
  try {
    value = JSON.parse(raw.text);
  } catch (e) {
    return lineError(raw.no, 'invalid_json_line', `line is not valid JSON (${(e as Error).message})`);
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    return lineError(raw.no, 'invalid_request', 'line must be a JSON object with custom_id, method, url and body');
  }
  const line = value as Record<string, unknown>;
  const customId = line['custom_id'];
  if (typeof customId !== 'string' || customId === '') {
    return lineError(raw.no, 'missing_required_parameter', 'custom_id must be a non-empty string', 'custom_id');
  }
  if (line['method'] !== 'POST') return lineError(raw.no, 'invalid_method', 'method must be "POST"', 'method');
  if (line['url'] !== endpoint) {
    return lineError(raw.no, 'invalid_url', `url must be the batch's endpoint "${endpoint}"`, 'url');
  }
  const body = line['body'];
  if (body === null || typeof body !== 'object' || Array.isArray(body)) {
    return lineError(raw.no, 'missing_required_parameter', 'body must be a JSON object', 'body');
  }
  if ((body as Record<string, unknown>)['stream'] === true) {
    return lineError(raw.no, 'invalid_body', 'streaming is not supported in a batch', 'body.stream');
  }
  return { no: raw.no, customId, body: body as Record<string, unknown> };
}

export function isLineError(value: ParsedLine | LineError): value is LineError {
  return 'code' in value;
}

export function lineError(line: number | null, code: string, message: string, param: string | null = null): LineError {
  return { code, message, param, line };
}
