/**
 * Anthropic wire fixtures recorded from the public documentation (Messages API reference,
 * streaming guide, tool use and extended thinking guides, errors page), trimmed to the fields
 * the adapter reads plus the ones the API always sends.
 */

/** A plain answer (Messages API reference, "Response"). */
export const MESSAGE_TEXT = {
  id: 'msg_013Zva2CMHLNnXjNJJKqJ2EF',
  type: 'message',
  role: 'assistant',
  model: 'claude-sonnet-4-5-20250929',
  content: [{ type: 'text', text: 'Hi! My name is Claude.' }],
  stop_reason: 'end_turn',
  stop_sequence: null,
  usage: { input_tokens: 2095, output_tokens: 503, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 },
};

/** A tool use answer (tool use guide: get_weather). */
export const MESSAGE_TOOL_USE = {
  id: 'msg_01Aq9w938a90dw8q',
  type: 'message',
  role: 'assistant',
  model: 'claude-sonnet-4-5-20250929',
  content: [
    { type: 'text', text: "I'll check the current weather in San Francisco for you." },
    { type: 'tool_use', id: 'toolu_01A09q90qw90lq917835lq9', name: 'get_weather', input: { location: 'San Francisco, CA', unit: 'celsius' } },
  ],
  stop_reason: 'tool_use',
  stop_sequence: null,
  usage: { input_tokens: 384, output_tokens: 92 },
};

/** An extended thinking answer (extended thinking guide), with a prompt-cache read. */
export const MESSAGE_THINKING = {
  id: 'msg_01Thinking',
  type: 'message',
  role: 'assistant',
  model: 'claude-sonnet-4-5-20250929',
  content: [
    { type: 'thinking', thinking: 'Let me analyze this step by step...', signature: 'WaUjzkypQ2mUEVM36O2TxuC06KN8xyfbJwyem2dw3URve/op91XWHOEBLLqIOMfFG/UvLEczmEsUjavL....' },
    { type: 'redacted_thinking', data: 'EmwKAhgBEgy3va3pzix/LafPsn4aDFIT2Xlxh0L5L8rLVyIwxtE3rAFBa8cr3qpP...' },
    { type: 'text', text: 'Based on my analysis...' },
  ],
  stop_reason: 'max_tokens',
  stop_sequence: null,
  usage: { input_tokens: 10, output_tokens: 120, cache_creation_input_tokens: 5, cache_read_input_tokens: 2000 },
};

/** An HTTP error body (errors page). */
export const ERROR_NOT_FOUND = {
  type: 'error',
  error: { type: 'not_found_error', message: 'The requested resource could not be found.' },
  request_id: 'req_011CSHoEeqs5C35K2UUqR7Fy',
};

/** An SSE body from (event, data) pairs, as the API writes it. */
export function sse(events: [string, unknown][]): string {
  return events.map(([event, data]) => `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`).join('');
}

/** Streaming guide, "Basic streaming request". */
export const STREAM_TEXT = sse([
  ['message_start', { type: 'message_start', message: { id: 'msg_1nZdL29xx5MUA1yADyHTEsnR8uuvGzszyY', type: 'message', role: 'assistant', content: [], model: 'claude-sonnet-4-5-20250929', stop_reason: null, stop_sequence: null, usage: { input_tokens: 25, output_tokens: 1 } } }],
  ['content_block_start', { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } }],
  ['ping', { type: 'ping' }],
  ['content_block_delta', { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'Hello' } }],
  ['content_block_delta', { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: '!' } }],
  ['content_block_stop', { type: 'content_block_stop', index: 0 }],
  ['message_delta', { type: 'message_delta', delta: { stop_reason: 'end_turn', stop_sequence: null }, usage: { output_tokens: 15 } }],
  ['message_stop', { type: 'message_stop' }],
]);

/** Streaming guide, "Streaming request with tool use" (text, then a tool_use with JSON deltas). */
export const STREAM_TOOL_USE = sse([
  ['message_start', { type: 'message_start', message: { id: 'msg_014p7gG3wDgGV9EUtLvnow3U', type: 'message', role: 'assistant', model: 'claude-sonnet-4-5-20250929', stop_sequence: null, usage: { input_tokens: 472, output_tokens: 2 }, content: [], stop_reason: null } }],
  ['content_block_start', { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } }],
  ['ping', { type: 'ping' }],
  ['content_block_delta', { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'Okay' } }],
  ['content_block_delta', { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: ', let\'s check the weather.' } }],
  ['content_block_stop', { type: 'content_block_stop', index: 0 }],
  ['content_block_start', { type: 'content_block_start', index: 1, content_block: { type: 'tool_use', id: 'toolu_01T1x1fJ34qAmk2tNTrN7Up6', name: 'get_weather', input: {} } }],
  ['content_block_delta', { type: 'content_block_delta', index: 1, delta: { type: 'input_json_delta', partial_json: '' } }],
  ['content_block_delta', { type: 'content_block_delta', index: 1, delta: { type: 'input_json_delta', partial_json: '{"location":' } }],
  ['content_block_delta', { type: 'content_block_delta', index: 1, delta: { type: 'input_json_delta', partial_json: ' "San Francisco, CA"' } }],
  ['content_block_delta', { type: 'content_block_delta', index: 1, delta: { type: 'input_json_delta', partial_json: ', "unit": "fahrenheit"}' } }],
  ['content_block_stop', { type: 'content_block_stop', index: 1 }],
  ['message_delta', { type: 'message_delta', delta: { stop_reason: 'tool_use', stop_sequence: null }, usage: { output_tokens: 89 } }],
  ['message_stop', { type: 'message_stop' }],
]);

/** Streaming guide, "Streaming request with extended thinking" (+ a redacted block). */
export const STREAM_THINKING = sse([
  ['message_start', { type: 'message_start', message: { id: 'msg_01SeD6bUfygBbrkmTmbHBQjj', type: 'message', role: 'assistant', content: [], model: 'claude-sonnet-4-5-20250929', stop_reason: null, stop_sequence: null, usage: { input_tokens: 36, cache_read_input_tokens: 64, output_tokens: 4 } } }],
  ['content_block_start', { type: 'content_block_start', index: 0, content_block: { type: 'thinking', thinking: '', signature: '' } }],
  ['content_block_delta', { type: 'content_block_delta', index: 0, delta: { type: 'thinking_delta', thinking: 'I need to find the GCD of 1071 and 462 using the Euclidean algorithm.\n\n1071 = 2 × 462 + 147' } }],
  ['content_block_delta', { type: 'content_block_delta', index: 0, delta: { type: 'thinking_delta', thinking: '\n462 = 3 × 147 + 21\n147 = 7 × 21 + 0' } }],
  ['content_block_delta', { type: 'content_block_delta', index: 0, delta: { type: 'signature_delta', signature: 'EqQBCgIYAhIM1gbcDa9GJwZA2b3hGgxBdjrkzLoky3dl1pkiMOYds...' } }],
  ['content_block_stop', { type: 'content_block_stop', index: 0 }],
  ['content_block_start', { type: 'content_block_start', index: 1, content_block: { type: 'redacted_thinking', data: 'EmwKAhgBEgy3va3pzix...' } }],
  ['content_block_stop', { type: 'content_block_stop', index: 1 }],
  ['content_block_start', { type: 'content_block_start', index: 2, content_block: { type: 'text', text: '' } }],
  ['content_block_delta', { type: 'content_block_delta', index: 2, delta: { type: 'text_delta', text: 'The greatest common divisor of 1071 and 462 is **21**.' } }],
  ['content_block_stop', { type: 'content_block_stop', index: 2 }],
  ['message_delta', { type: 'message_delta', delta: { stop_reason: 'end_turn', stop_sequence: null }, usage: { output_tokens: 92 } }],
  ['message_stop', { type: 'message_stop' }],
]);

/** Streaming guide, "Error events": an overloaded_error in the middle of a stream. */
export const STREAM_ERROR_MIDWAY = sse([
  ['message_start', { type: 'message_start', message: { id: 'msg_err', type: 'message', role: 'assistant', content: [], model: 'claude-sonnet-4-5-20250929', stop_reason: null, stop_sequence: null, usage: { input_tokens: 5, output_tokens: 1 } } }],
  ['content_block_start', { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } }],
  ['content_block_delta', { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'Hel' } }],
  ['error', { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } }],
]);
