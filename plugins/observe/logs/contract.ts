/**
 * The request-log service of observe.logs, as other plugins use it (analytics, metrics): import
 * this file (the key, or the types) and nothing else of the family.
 */
import { serviceKey, type GatewayResponse, type RequestContext } from '../../../core/index.js';
import type { RecordListener, RecorderStats } from './recorder.js';
import type { Purpose } from './visibility.js';

export type { RecordedLog, RecordListener, RecorderStats } from './recorder.js';
export type { Purpose } from './visibility.js';

export interface RequestLogs {
  stats(): RecorderStats;
  /** Calls `listener` with each batch of recorded requests; returns the unsubscribe. */
  onRecords(listener: RecordListener): () => void;
  /** Writes every queued entry now (tests, shutdown). */
  flush(): Promise<void>;
  /** Deletes logs older than the retention age; returns how many. */
  sweep(now?: number): Promise<number>;
  /** Answers a `.../groups/:groupBy` route for the given purpose and scope. */
  answerGroups(ctx: RequestContext, purpose: Purpose, scope: string): Promise<GatewayResponse>;
}

export const RequestLogsService = serviceKey<RequestLogs>('request-logs');
