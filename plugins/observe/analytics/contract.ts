/**
 * What observe.analytics reads from other plugins, as they import it: this file and nothing else
 * of the plugin. `FeedbackFiguresService` is provided by observe.feedback; analytics answers
 * `GET /v1/analytics/graphs/feedbacks` with it.
 */
import { serviceKey } from '../../../core/index.js';
import type { ViewScope } from '../logs/contract.js';

export const ANALYTICS_SCOPE = 'analytics.view';

/** Feedback figures over a set of feedback: how many, the mean value, and the mean weighted by `weight`. */
export interface FeedbackFigures {
  total: number;
  /** Null when there is none. */
  average_value: number | null;
  /** Σ(value × weight) / Σ(weight); null when the weights add up to 0. */
  weighted_average_value: number | null;
}

/** A day (UTC) of feedback figures. */
export interface FeedbackDataPoint extends FeedbackFigures {
  /** The day's start, ISO 8601. */
  timestamp: string;
}

export interface FeedbackRange {
  /** ms since the epoch, inclusive. */
  from?: number;
  to?: number;
}

export interface FeedbackAnalytics {
  /** The figures of the feedback the scope sees in the range: a summary and one point per day that has any. */
  graph(scope: ViewScope, range: FeedbackRange): Promise<{ summary: FeedbackFigures; data_points: FeedbackDataPoint[] }>;
}

export const FeedbackAnalyticsService = serviceKey<FeedbackAnalytics>('feedback-analytics');
