/** Unified chat body → Gemini `generateContent` body (providers/gemini-common/request.ts), for this provider. */
import { toGeminiRequest as toGemini } from '../gemini-common/request.js';
import { PROVIDER_ID } from './target.js';

export type { GeminiContent, GeminiPart } from '../gemini-common/request.js';

export const toGeminiRequest = (body: Record<string, unknown>): Record<string, unknown> => toGemini(body, PROVIDER_ID);
