/** agents.mcp-gateway: the SSE reader of the relay keeps ids and raw bytes, whatever the chunking. */
import { expect } from 'chai';
import { rewrittenEvent, sseEvents, type RelayedEvent } from '../../../../plugins/agents/mcp-gateway/sse-events.js';

async function* chunks(...parts: string[]): AsyncGenerator<Uint8Array> {
  const encoder = new TextEncoder();
  for (const p of parts) yield encoder.encode(p);
}

async function all(source: AsyncIterable<Uint8Array>): Promise<RelayedEvent[]> {
  const out: RelayedEvent[] = [];
  for await (const e of sseEvents(source)) out.push(e);
  return out;
}

describe('agents.mcp-gateway: SSE events of the relay', () => {
  it('yields each event with its id, name and data, however the bytes are split', async () => {
    const text = 'event: message\nid: 7\ndata: {"a":\ndata: 1}\n\n: ping\n\nid: 8\ndata: two\n\n';
    for (let cut = 1; cut < text.length; cut += 5) {
      const events = await all(chunks(text.slice(0, cut), text.slice(cut)));
      expect(events.map((e) => [e.event, e.id, e.data])).to.deep.equal([['message', '7', '{"a":\n1}'], [undefined, undefined, undefined], [undefined, '8', 'two']]);
      expect(events.map((e) => e.raw).join('')).to.equal(text, 'raw bytes pass unchanged');
    }
  });

  it('reads CRLF line ends and a last event without its blank line', async () => {
    const events = await all(chunks('id: 1\r\ndata: x\r\n\r\ndata: tail'));
    expect(events.map((e) => [e.id, e.data])).to.deep.equal([['1', 'x'], [undefined, 'tail']]);
  });

  it('rewrites an event\'s data keeping its id and name', () => {
    expect(rewrittenEvent({ id: '9', event: 'message' }, '{"b":2}')).to.equal('event: message\nid: 9\ndata: {"b":2}\n\n');
  });
});
