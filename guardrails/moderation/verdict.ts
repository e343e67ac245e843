/** Reading a moderation result (OpenAI shape) against the check's categories and thresholds. */
import type { ModerationParams } from './params.js';

export interface ModerationResult {
  flagged?: boolean;
  categories?: Record<string, boolean>;
  category_scores?: Record<string, number>;
}

/** The categories that fail the check. */
export function failingCategories(result: ModerationResult, params: ModerationParams): string[] {
  const flags = result.categories ?? {};
  const scores = result.category_scores ?? {};
  const thresholds = params.thresholds ?? {};
  const considered = params.categories ?? Object.keys({ ...flags, ...thresholds });
  const failing: string[] = [];
  for (const category of considered) {
    const threshold = Object.hasOwn(thresholds, category) ? thresholds[category] : undefined;
    const hit = threshold !== undefined ? (scores[category] ?? 0) >= threshold : flags[category] === true;
    if (hit) failing.push(category);
  }
  return failing;
}
