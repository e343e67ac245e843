/**
 * Bench upstream: the fastest plausible OpenAI chat endpoint, so the numbers measure what sits
 * in front of it. Fixed answers, prebuilt buffers, keep-alive.
 * Usage: node upstream.js [--chunk-delay MS]  (or env BENCH_CHUNK_DELAY_MS); prints its URL.
 */
import { createServer } from 'node:http';
import { parseArgs } from 'node:util';

const { values } = parseArgs({ options: { 'chunk-delay': { type: 'string' } } });
const chunkDelayMs = Number(values['chunk-delay'] ?? process.env.BENCH_CHUNK_DELAY_MS ?? 0);

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

const events = [
  chunk({ role: 'assistant', content: '' }, null),
  chunk({ content: 'Hello' }, null),
  chunk({ content: ' from the' }, null),
  chunk({ content: ' bench upstream.' }, null),
  chunk({}, 'stop'),
  'data: [DONE]\n\n',
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
    if (!stream) {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': completion.length });
      return res.end(completion);
    }
    // Headers go out at once, so a client's first body byte marks the first chunk, not the headers.
    res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache' });
    res.flushHeaders();
    if (chunkDelayMs <= 0) return res.end(events.join(''));
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
