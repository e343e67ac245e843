/**
 * observe.trace-ids: trace and span ids and request metadata from `x-gw-*` headers (spec §4).
 * A trace id is generated when absent and echoed on every response as `x-gw-trace-id`.
 */
import { BoundedMap, DEFAULT_JSON_MAX_DEPTH, randomUuid, Errors, jsonDepthRule, nestsDeeperThan, Stage, type HeaderMap, type Plugin, type PluginApi } from '../../../core/index.js';
import { SpanKey, type SpanInfo } from './contract.js';

export { SpanKey, type SpanInfo } from './contract.js';

const MAX_ID_LENGTH = 128;
const MAX_NAME_LENGTH = 256;
/** Ids go into logs, exported spans and the answer's headers: printable ASCII, no spaces. */
const ID_PATTERN = /^[\x21-\x7e]{1,128}$/;
const ID_RULE = `must be 1 to ${MAX_ID_LENGTH} printable ASCII characters (0x21 to 0x7e, no spaces)`;
/** A span name may hold spaces. */
const NAME_PATTERN = /^[\x20-\x7e]{1,256}$/;
const NAME_RULE = `must be 1 to ${MAX_NAME_LENGTH} printable ASCII characters (0x20 to 0x7e)`;
/** Distinct x-gw-metadata values kept parsed (clients repeat the same few), frozen: shared by requests. */
const PARSED_METADATA = 1000;

export default class TracePlugin implements Plugin {
  static readonly manifest = { id: 'observe.trace-ids', description: 'Trace/span ids and x-gw-metadata' };

  apply(api: PluginApi): void {
    const parsed = new BoundedMap<string, Readonly<Record<string, string>>>(PARSED_METADATA);
    const maxJsonDepth = api.settings.jsonMaxDepth ?? DEFAULT_JSON_MAX_DEPTH;
    const metadataOf = (header: string) => parsed.remember(header, () => Object.freeze(parseMetadata(header, maxJsonDepth)));
    api.hooks.onRequest.tap({ name: api.id, stage: Stage.TRACE }, (ctx) => {
      const h = ctx.request.headers;
      const given = checked(h, 'x-gw-trace-id', ID_PATTERN, ID_RULE);
      ctx.traceId = given ?? randomUuid();
      ctx.responseHeaders['x-gw-trace-id'] = ctx.traceId;
      if (h['x-gw-span-id'] !== undefined || h['x-gw-parent-span-id'] !== undefined || h['x-gw-span-name'] !== undefined) {
        const span: SpanInfo = {
          spanId: checked(h, 'x-gw-span-id', ID_PATTERN, ID_RULE),
          parentSpanId: checked(h, 'x-gw-parent-span-id', ID_PATTERN, ID_RULE),
          spanName: checked(h, 'x-gw-span-name', NAME_PATTERN, NAME_RULE),
        };
        ctx.values.set(SpanKey, span);
      }
      const metadata = h['x-gw-metadata'];
      if (metadata !== undefined) ctx.metadata = metadataOf(metadata);
    });
  }
}

/** A tracing header's value when it follows `pattern` (undefined when absent); a 400 naming the header otherwise. */
function checked(headers: HeaderMap, name: string, pattern: RegExp, rule: string): string | undefined {
  const value = headers[name];
  if (value !== undefined && !pattern.test(value)) throw Errors.invalidHeader(name, rule);
  return value;
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
