import { startGateway } from '../../helpers/gateway.js';
import { STRATEGY_PLUGINS, startMocks, closeAll, leaf, send, STREAM_BODY, counts } from './harness.js';
describe('probe', () => {
  it('runs', async () => {
    const gw = await startGateway({ plugins: STRATEGY_PLUGINS });
    const mocks = await startMocks(2);
    const config = { strategy: { mode: 'fallback' }, targets: [leaf(mocks[0]!), leaf(mocks[1]!)] };
    for (const b of [{ streamCutAfter: 0 }, { reset: true }, { streamCutAfter: 1 }] as const) {
      mocks[0]!.next(b as any);
      const r = await send(gw, config, { body: STREAM_BODY });
      console.log(JSON.stringify(b), r.status, r.headers.get('x-gw-last-used-option-index'), counts(mocks), r.text.slice(0, 100), '...', r.text.slice(-150));
      mocks.forEach((m) => m.reset());
    }
    mocks[0]!.next({ status: 503 }); mocks[1]!.next({ status: 500 });
    const r = await send(gw, config);
    console.log(r.status, r.text, [...r.headers]);
    await closeAll(mocks); await gw.stop();
  });
});
