/** Converse `stopReason` → unified `finish_reason`. */
import type { FinishReason } from '../../core/index.js';

const FINISH_REASONS: Readonly<Record<string, FinishReason>> = {
  end_turn: 'stop',
  stop_sequence: 'stop',
  max_tokens: 'length',
  model_context_window_exceeded: 'length',
  tool_use: 'tool_calls',
  guardrail_intervened: 'content_filter',
  content_filtered: 'content_filter',
};

/** Unknown (newer) reasons read as `stop`: the answer did end, and clients only know the unified set. */
export function finishReason(stopReason: string | undefined): FinishReason {
  return (stopReason !== undefined ? FINISH_REASONS[stopReason] : undefined) ?? 'stop';
}
