/**
 * The bench's stage-timings plugin in a real gateway against the mock OpenAI server: each stage's
 * median comes from the requests since the last read, the provider call holds the provider's time,
 * a request refused early leaves the later stages to the others, and other routes are not counted.
 */
import { expect } from 'chai';
import { call, CHAT_BODY, directHeaders, startGateway, type TestGateway } from '../helpers/gateway.js';
import { startMockOpenAI, type MockOpenAI } from '../fixtures/mock-openai.js';
import StageTimingsPlugin, { type StageTimes } from './stage-timings.js';

describe('bench: stage timings plugin', function () {
  this.timeout(20_000);
  let mock: MockOpenAI;
  let gw: TestGateway;

  before(async () => {
    mock = await startMockOpenAI();
    gw = await startGateway({ plugins: [StageTimingsPlugin] });
  });
  after(async () => {
    await gw?.stop();
    await mock?.close();
  });

  const read = async (): Promise<StageTimes> => (await call(gw, 'GET', '/bench/stages')).json as StageTimes;
  const stage = (times: StageTimes, prefix: string) => times.stages.find((s) => s.stage.startsWith(prefix))!.p50Us;

  it('gives the median of every stage over the requests since the last read, the provider\'s time inside the provider call', async () => {
    await read();
    for (let i = 0; i < 3; i++) {
      mock.next({ delayMs: 40 });
      expect((await call(gw, 'POST', '/v1/chat/completions', CHAT_BODY, directHeaders(mock))).status).to.equal(200);
    }
    const times = await read();
    expect(times.requests).to.equal(3);
    expect(times.stages.map((s) => s.stage)).to.have.length(14);
    for (const s of times.stages) expect(s.p50Us, s.stage).to.be.a('number').and.at.least(0);
    expect(stage(times, 'provider call')).to.be.at.least(40_000);
    const total = times.stages.reduce((n, s) => n + s.p50Us!, 0);
    expect(total).to.be.below(40_000 + 1_000_000);
    expect((await read()).requests).to.equal(0);
  });

  it('counts a request refused at onRequest without stages it never reached, and no other route', async () => {
    await read();
    expect((await call(gw, 'POST', '/v1/chat/completions', CHAT_BODY, { ...directHeaders(mock), 'x-gw-api-key': 'gw-wrong' })).status).to.equal(401);
    expect((await call(gw, 'GET', '/v1/models')).status).to.be.below(500);
    const times = await read();
    expect(times.requests).to.equal(1);
    expect(stage(times, 'host → onRequest')).to.be.at.least(0);
    expect(stage(times, 'provider call')).to.equal(null);
  });
});
