/**
 * Bench upstream: the fastest plausible OpenAI chat endpoint, so the numbers measure what sits
 * in front of it. Fixed answers, prebuilt buffers, keep-alive.
 * Usage: node upstream.js [--chunk-delay MS] [--events N]  (or env BENCH_CHUNK_DELAY_MS); prints its URL.
 * `--events N` (default 6, at least 3): events of an OpenAI stream: role, N - 3 content deltas, finish, `[DONE]`.
 */
import { createServer } from 'node:http';
import { parseArgs } from 'node:util';

const { values } = parseArgs({ options: { 'chunk-delay': { type: 'string' }, events: { type: 'string', default: '6' } } });
const chunkDelayMs = Number(values['chunk-delay'] ?? process.env.BENCH_CHUNK_DELAY_MS ?? 0);
const eventCount = Number(values.events);
if (!Number.isInteger(eventCount) || eventCount < 3) throw new Error(`upstream: --events must be an integer >= 3, got "${values.events}"`);

const completion = Buffer.from(
  JSON.stringify({
    id: 'chatcmpl-bench',
    object: 'chat.completion',
    created: 1700000000,
    model: 'gpt-bench',
    system_fingerprint: 'fp_bench',
    choices: [{ index: 0, message: { role: 'assistant', content: 'Hello from the bench upstream.' }, logprobs: null, finish_reason: 'stop' }],
    usage: { prompt_tokens: 9, completion_tokens: 7, total_tokens: 16 },
  }),
);

const chunk = (delta: object, finish: string | null) =>
  `data: ${JSON.stringify({
    id: 'chatcmpl-bench',
    object: 'chat.completion.chunk',
    created: 1700000000,
    model: 'gpt-bench',
    system_fingerprint: 'fp_bench',
    choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }],
  })}\n\n`;

const words = ['Hello', ' from the', ' bench upstream.'];
const events = [
  chunk({ role: 'assistant', content: '' }, null),
  ...Array.from({ length: eventCount - 3 }, (_, i) => chunk({ content: words[i % words.length] }, null)),
  chunk({}, 'stop'),
  'data: [DONE]\n\n',
];
const allEvents = events.join('');

// The same answer in Anthropic's Messages format, for scenarios that measure translation.
const anthropicMessage = Buffer.from(
  JSON.stringify({
    id: 'msg_bench', type: 'message', role: 'assistant', model: 'claude-bench',
    content: [{ type: 'text', text: 'Hello from the bench upstream.' }],
    stop_reason: 'end_turn', stop_sequence: null, usage: { input_tokens: 9, output_tokens: 7 },
  }),
);
const anthropicEvent = (type: string, data: object) => `event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`;
const anthropicEvents = [
  anthropicEvent('message_start', { message: { id: 'msg_bench', type: 'message', role: 'assistant', model: 'claude-bench', content: [], stop_reason: null, stop_sequence: null, usage: { input_tokens: 9, output_tokens: 1 } } }),
  anthropicEvent('content_block_start', { index: 0, content_block: { type: 'text', text: '' } }),
  anthropicEvent('content_block_delta', { index: 0, delta: { type: 'text_delta', text: 'Hello' } }),
  anthropicEvent('content_block_delta', { index: 0, delta: { type: 'text_delta', text: ' from the' } }),
  anthropicEvent('content_block_delta', { index: 0, delta: { type: 'text_delta', text: ' bench upstream.' } }),
  anthropicEvent('content_block_stop', { index: 0 }),
  anthropicEvent('message_delta', { delta: { stop_reason: 'end_turn', stop_sequence: null }, usage: { output_tokens: 7 } }),
  anthropicEvent('message_stop', {}),
];

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const server = createServer((req, res) => {
  const parts: Buffer[] = [];
  req.on('data', (c: Buffer) => parts.push(c));
  req.on('end', async () => {
    let stream = false;
    try {
      stream = JSON.parse(Buffer.concat(parts).toString('utf8')).stream === true;
    } catch {
      // a non-JSON body gets the plain answer
    }
    const anthropic = req.url?.endsWith('/messages') === true;
    if (!stream) {
      const body = anthropic ? anthropicMessage : completion;
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': body.length });
      return res.end(body);
    }
    if (anthropic) {
      res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache' });
      return res.end(anthropicEvents.join(''));
    }
    // Headers go out at once, so a client's first body byte marks the first chunk, not the headers.
    res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache' });
    res.flushHeaders();
    if (chunkDelayMs <= 0) return res.end(allEvents);
    for (const e of events) {
      await sleep(chunkDelayMs); // every chunk, the first included, comes after the delay
      if (res.destroyed) return;
      res.write(e);
    }
    res.end();
  });
});
server.keepAliveTimeout = 60_000;
server.listen(0, '127.0.0.1', () => {
  const addr = server.address();
  if (addr && typeof addr === 'object') console.log(`listening on http://127.0.0.1:${addr.port}`);
});
