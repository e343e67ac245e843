/**
 * Gemini `streamGenerateContent?alt=sse` → unified `chat.completion.chunk` events, translated as
 * each provider event arrives. Every event is a partial GenerateContentResponse: text parts become
 * content deltas, a function call (Gemini sends it whole) becomes two tool-call deltas (id and name,
 * then the arguments, as OpenAI streams them), a finishReason the one finishing chunk of its
 * candidate. Usage follows OpenAI: only with `stream_options.include_usage`, as a last chunk with
 * empty choices. An `error` event throws the provider's error; a stream that ends before any
 * finish reason throws too (a cut stream must not look whole). The guard adds `[DONE]`.
 */
import { Errors, chunkFactory, parseSse, sseData, type ChatCompletionChunk, type ChunkDelta, type FinishReason } from '../../core/index.js';
import { fromGoogleError, googleErrorOf } from './errors.js';
import { finishReasonOf, responseIdOf, toolCallId, usageOf, type GeminiResponse, type GeminiUsage } from './answers.js';

interface CandidateState {
  started: boolean;
  toolCalls: number;
  finished: boolean;
}

export async function* geminiStreamToUnified(
  source: AsyncIterable<Uint8Array>, requestModel: string, includeUsage: boolean, provider: string,
): AsyncGenerator<Uint8Array> {
  let make: ReturnType<typeof chunkFactory> | undefined;
  let head: { id: string; model: string; created: number } | undefined;
  const states: CandidateState[] = [];
  let finished = 0;
  let lastUsage: GeminiUsage | undefined;

  const chunk = (index: number, delta: ChunkDelta, finishReason: FinishReason = null): Uint8Array => {
    const c: ChatCompletionChunk = make!(delta, finishReason);
    if (index !== 0) c.choices[0]!.index = index;
    return sseData(c);
  };

  for await (const event of parseSse(source)) {
    let data: GeminiResponse & { error?: unknown };
    try {
      data = JSON.parse(event.data);
    } catch {
      throw Errors.badGateway(`provider ${provider} sent a stream event that is not JSON`, provider);
    }
    const error = googleErrorOf(data);
    if (error) throw fromGoogleError(typeof error.code === 'number' ? error.code : 500, error, provider);
    if (!make) {
      head = { id: responseIdOf(data), model: data.modelVersion ?? requestModel, created: Math.floor(Date.now() / 1000) };
      make = chunkFactory({ ...head, provider });
    }
    if (data.usageMetadata) lastUsage = data.usageMetadata;

    const candidates = data.candidates ?? [];
    for (let c = 0; c < candidates.length; c++) {
      const candidate = candidates[c]!;
      const index = candidate.index ?? c;
      const state = (states[index] ??= { started: false, toolCalls: 0, finished: false });
      for (const part of candidate.content?.parts ?? []) {
        if (part.thought) continue;
        if (typeof part.text === 'string' && part.text !== '') {
          yield chunk(index, state.started ? { content: part.text } : { role: 'assistant', content: part.text });
          state.started = true;
        }
        const call = part.functionCall;
        if (call) {
          const toolIndex = state.toolCalls++;
          const opening: ChunkDelta = { tool_calls: [{ index: toolIndex, id: toolCallId(call.id), type: 'function', function: { name: call.name, arguments: '' } }] };
          if (!state.started) opening.role = 'assistant';
          state.started = true;
          yield chunk(index, opening);
          yield chunk(index, { tool_calls: [{ index: toolIndex, function: { arguments: JSON.stringify(call.args ?? {}) } }] });
        }
      }
      if (candidate.finishReason && !state.finished) {
        state.finished = true;
        finished++;
        yield chunk(index, {}, finishReasonOf(candidate.finishReason, state.toolCalls > 0));
      }
    }
    // A prompt blocked before generation: no candidate, only the block reason.
    if (candidates.length === 0 && data.promptFeedback?.blockReason && finished === 0) {
      states[0] = { started: true, toolCalls: 0, finished: true };
      finished++;
      yield chunk(0, { role: 'assistant', content: '' }, 'content_filter');
    }
  }

  if (finished === 0) throw Errors.badGateway(`provider ${provider} stream ended before a finish reason`, provider);
  if (includeUsage && head) {
    yield sseData({ ...head, object: 'chat.completion.chunk', provider, choices: [], usage: usageOf(lastUsage) });
  }
}
