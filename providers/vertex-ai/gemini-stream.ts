/** Gemini `streamGenerateContent?alt=sse` → unified chunks (providers/gemini-common/stream.ts), for this provider. */
import { geminiStreamToUnified as fromGeminiStream } from '../gemini-common/stream.js';
import { PROVIDER_ID } from './target.js';

export const geminiStreamToUnified = (
  source: AsyncIterable<Uint8Array>, requestModel: string, includeUsage: boolean,
): AsyncGenerator<Uint8Array> => fromGeminiStream(source, requestModel, includeUsage, PROVIDER_ID);
