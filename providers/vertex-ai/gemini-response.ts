/** Gemini `generateContent` answer → unified `chat.completion` (providers/gemini-common/response.ts), for this provider. */
import type { ChatCompletion } from '../../core/index.js';
import type { GeminiResponse } from '../gemini-common/answers.js';
import { fromGeminiResponse as fromGemini } from '../gemini-common/response.js';
import { PROVIDER_ID } from './target.js';

export const fromGeminiResponse = (response: GeminiResponse, requestModel: string): ChatCompletion =>
  fromGemini(response, requestModel, PROVIDER_ID);
