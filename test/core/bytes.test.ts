/** asBuffer / utf8Of: a Buffer is used as it is, other byte arrays are viewed, never copied. */
import { expect } from 'chai';
import { asBuffer } from '../../core/index.js';
import { utf8Of } from '../../core/bytes.js';

describe('core: bytes as a Buffer', () => {
  it('answers a Buffer itself', () => {
    const b = Buffer.from('héllo');
    expect(asBuffer(b)).to.equal(b);
    expect(utf8Of(b)).to.equal('héllo');
  });

  it('views a Uint8Array (a slice of a larger buffer included) without copying', () => {
    const whole = new Uint8Array(Buffer.from('xx{"a":"ü"}yy'));
    const part = whole.subarray(2, whole.length - 2);
    const view = asBuffer(part);
    expect(Buffer.isBuffer(view)).to.equal(true);
    expect(utf8Of(part)).to.equal('{"a":"ü"}');
    part[0] = 0x5b; // writes through: the same memory
    expect(view[0]).to.equal(0x5b);
  });
});
