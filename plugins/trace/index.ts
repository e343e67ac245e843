/**
 * observe.trace: trace and span ids and request metadata from `x-gw-*` headers (spec §4).
 * A trace id is generated when absent and echoed on every response as `x-gw-trace-id`.
 */
import { randomUUID } from 'node:crypto';
import { BoundedMap, DEFAULT_JSON_MAX_DEPTH, Errors, jsonDepthRule, nestsDeeperThan, Stage, type Plugin, type PluginApi } from '../../core/index.js';

export interface SpanInfo {
  spanId?: string;
  parentSpanId?: string;
  spanName?: string;
}

/** Where the span headers of a request are kept in `ctx.locals`. */
export const SPAN_KEY = Symbol.for('gw.trace.span');

const MAX_ID_LENGTH = 256;
/** Distinct x-gw-metadata values kept parsed (clients repeat the same few), frozen: shared by requests. */
const PARSED_METADATA = 1000;

export default class TracePlugin implements Plugin {
  static readonly manifest = { id: 'observe.trace', description: 'Trace/span ids and x-gw-metadata' };

  apply(api: PluginApi): void {
    const parsed = new BoundedMap<string, Readonly<Record<string, string>>>(PARSED_METADATA);
    const maxJsonDepth = api.settings.jsonMaxDepth ?? DEFAULT_JSON_MAX_DEPTH;
    const metadataOf = (header: string) => parsed.remember(header, () => Object.freeze(parseMetadata(header, maxJsonDepth)));
    api.hooks.onRequest.tap({ name: api.id, stage: Stage.TRACE }, (ctx) => {
      const h = ctx.request.headers;
      const given = h['x-gw-trace-id'];
      if (given !== undefined && (given.length === 0 || given.length > MAX_ID_LENGTH)) {
        throw Errors.invalidHeader('x-gw-trace-id', `must be 1 to ${MAX_ID_LENGTH} characters`);
      }
      ctx.traceId = given ?? randomUUID();
      ctx.responseHeaders['x-gw-trace-id'] = ctx.traceId;
      if (h['x-gw-span-id'] !== undefined || h['x-gw-parent-span-id'] !== undefined || h['x-gw-span-name'] !== undefined) {
        const span: SpanInfo = { spanId: h['x-gw-span-id'], parentSpanId: h['x-gw-parent-span-id'], spanName: h['x-gw-span-name'] };
        ctx.locals.set(SPAN_KEY, span);
      }
      const metadata = h['x-gw-metadata'];
      if (metadata !== undefined) ctx.metadata = metadataOf(metadata);
    });
  }
}

/** `x-gw-metadata`: a JSON object of string values (INTERFACE.md). */
export function parseMetadata(header: string, maxJsonDepth = DEFAULT_JSON_MAX_DEPTH): Record<string, string> {
  if (nestsDeeperThan(header, maxJsonDepth)) throw Errors.invalidHeader('x-gw-metadata', jsonDepthRule(maxJsonDepth));
  let value: unknown;
  try {
    value = JSON.parse(header);
  } catch {
    throw Errors.invalidHeader('x-gw-metadata', 'must be a JSON object of string values');
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw Errors.invalidHeader('x-gw-metadata', 'must be a JSON object of string values');
  }
  for (const [key, v] of Object.entries(value)) {
    if (typeof v !== 'string') throw Errors.invalidHeader('x-gw-metadata', `value of "${key}" must be a string`);
  }
  return value as Record<string, string>;
}
