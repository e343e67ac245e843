/**
 * The request's stream usage meter, shared across plugin families: the limit plugins put one on a
 * streamed answer (plugins/policies/limits-common/usage.ts) and the request logs read its result.
 */
import { requestKey } from './request-values.js';

export interface TokenUsage {
  promptTokens: number;
  completionTokens: number;
  /** The model named by the answer, else by the request. */
  model: string | undefined;
  /** Counted from text (a stream without a usage chunk), 4 characters per token. */
  estimated: boolean;
}

export interface StreamUsageMeter {
  result(): TokenUsage | undefined;
}

/** The request's stream meter, shared by every plugin that meters the same answer. */
export const UsageMeterKey = requestKey<StreamUsageMeter>('usage.meter');
