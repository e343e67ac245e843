/**
 * The request-log service of observe.logs, as other plugins use it (analytics, metrics): import
 * this file (the key, or the types) and nothing else of the family.
 */
import { serviceKey, type GatewayResponse, type RequestContext } from '../../../core/index.js';
import type { ViewScope } from './filter.js';
import type { RecordListener, RecorderStats } from './recorder.js';
import type { Purpose } from './visibility.js';

export type { ViewScope } from './filter.js';
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
  /**
   * Answers a figures-over-time route (series.ts): the log filters plus `bucket`, for the given
   * purpose and scope.
   */
  answerSeries(ctx: RequestContext, purpose: Purpose, scope: string): Promise<GatewayResponse>;
  /**
   * What the caller may see of the logs (or analytics) with `scopeName`, by the same rules as the
   * log routes (visibility.ts): 403 without the scope or the requested workspace, 404 for an unknown one.
   */
  viewScope(ctx: RequestContext, purpose: Purpose, scopeName: string, workspace?: string): Promise<ViewScope>;
}

export const RequestLogsService = serviceKey<RequestLogs>('request-logs');

/** One feedback on a request, as `GET /v1/logs/:id` shows it under `feedback`. */
export interface LogFeedbackEntry {
  id: string;
  value: number;
  weight: number;
  metadata: Record<string, unknown> | null;
  api_key_id: string | null;
  created_at: string;
}

/** The log a feedback may attach to: its trace id and where it was recorded. */
export interface FeedbackTarget {
  traceId: string;
  organisationId: string;
  workspaceId: string | null;
}

/**
 * Feedback on requests, by trace id (plugin observe.feedback provides it; observe.logs reads it,
 * when loaded, to show a log's `feedback`).
 */
export interface LogFeedback {
  /** The feedback that may attach to this log: of its organisation, and of its workspace or organisation-level. */
  forLog(log: FeedbackTarget): Promise<LogFeedbackEntry[]>;
}

export const LogFeedbackService = serviceKey<LogFeedback>('log-feedback');
