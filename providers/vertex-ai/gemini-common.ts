/** The Gemini answer shapes, shared with the google provider (providers/gemini-common/). */
export type { GeminiCandidate, GeminiResponse, GeminiUsage } from '../gemini-common/answers.js';
