/** An unwritten stream (client already gone) is started and returned, so its producer's `finally` runs. */
import { expect } from 'chai';
import { drainStream } from '../../host/node-adapter.js';

const response = (stream: AsyncIterable<Uint8Array>) => ({ status: 200, headers: {}, stream });

describe('drainStream', () => {
  it('runs the finally of a generator that never started', async () => {
    let released = false;
    let produced = 0;
    async function* producer() {
      try {
        for (;;) {
          produced++;
          yield new Uint8Array([1]);
        }
      } finally {
        released = true;
      }
    }
    await drainStream(response(producer()));
    expect(released).to.equal(true);
    expect(produced).to.equal(1);
  });

  it('lets go of a stream that does not start within its bound', async function () {
    this.timeout(5_000);
    const started = Date.now();
    const never: AsyncIterable<Uint8Array> = { [Symbol.asyncIterator]: () => ({ next: () => new Promise(() => undefined), return: async () => ({ done: true, value: undefined }) }) };
    await drainStream(response(never));
    expect(Date.now() - started).to.be.within(900, 3_000);
  });

  it('is quiet about a stream that fails as it starts, and about no stream', async () => {
    async function* failing(): AsyncGenerator<Uint8Array> {
      throw new Error('upstream gone');
    }
    await drainStream(response(failing()));
    await drainStream({ status: 200, headers: {} });
  });
});
