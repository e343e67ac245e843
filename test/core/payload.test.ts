/** JsonPayload: bytes kept as they arrived, parsed once. */
import { expect } from 'chai';
import { JsonPayload } from '../../core/index.js';

const bytes = (s: string) => new TextEncoder().encode(s);

describe('core: JsonPayload', () => {
  it('sends the original bytes after a parse, and gives them as text', () => {
    const raw = bytes('{"a":"é", "b": [1, 2]}');
    const p = JsonPayload.fromBytes(raw);
    expect(p.value).to.deep.equal({ a: 'é', b: [1, 2] });
    expect(p.bytes()).to.equal(raw);
    const text = p.text();
    expect(text).to.equal('{"a":"é", "b": [1, 2]}');
    expect(p.text()).to.equal(text);
  });

  it('gives the serialised value as text once the value is replaced or touched', () => {
    const p = JsonPayload.fromBytes(bytes('{"a": 1}'));
    expect(p.text()).to.equal('{"a": 1}');
    p.value = { a: 2 };
    expect(p.text()).to.equal('{"a":2}');
    const q = JsonPayload.fromBytes(bytes('{"a": 1}'));
    void q.text();
    (q.value as { a: number }).a = 3;
    q.touch();
    expect(q.text()).to.equal('{"a":3}');
    expect(q.bytes()).to.equal('{"a":3}');
  });

  it('throws on bytes that are not JSON, and tryValue answers undefined', () => {
    const p = JsonPayload.fromBytes(bytes('{oops'));
    expect(() => p.value).to.throw(SyntaxError);
    expect(p.tryValue()).to.equal(undefined);
    expect(p.text()).to.equal('{oops');
  });
});
