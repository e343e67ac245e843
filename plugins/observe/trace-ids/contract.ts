/** What observe.trace-ids shares with other plugins (tracing, logs): import this file and nothing else of it. */
import { requestKey } from '../../../core/index.js';

/** A request's span headers (`x-gw-span-id`, `x-gw-parent-span-id`, `x-gw-span-name`). */
export interface SpanInfo {
  spanId?: string;
  parentSpanId?: string;
  spanName?: string;
}

/** Set by observe.trace-ids when the request names a span; observe.tracing fills a missing parent from `traceparent`. */
export const SpanKey = requestKey<SpanInfo>('trace.span');
