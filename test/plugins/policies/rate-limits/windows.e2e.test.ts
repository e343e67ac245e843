/** Each unit's window end to end, with a fake clock (Date only): refused until the boundary, then free. */
import { expect } from 'chai';
import sinon from 'sinon';
import { startMockOpenAI, type MockOpenAI } from '../../../fixtures/mock-openai.js';
import type { TestGateway } from '../../../helpers/gateway.js';
import { chat, createPolicy, startLimitsGateway } from './harness.js';

const T0 = Date.parse('2025-01-08T10:20:30.500Z'); // a Wednesday

const UNITS: { unit: string; boundary: string }[] = [
  { unit: 'rpm', boundary: '2025-01-08T10:21:00Z' },
  { unit: 'rph', boundary: '2025-01-08T11:00:00Z' },
  { unit: 'rpd', boundary: '2025-01-09T00:00:00Z' },
  { unit: 'rpw', boundary: '2025-01-13T00:00:00Z' },
];

describe('policy.rate-limits: windows of each unit (end to end, fake clock)', () => {
  let mock: MockOpenAI;
  let gw: TestGateway;
  let clock: sinon.SinonFakeTimers;

  before(async () => {
    mock = await startMockOpenAI();
    gw = await startLimitsGateway();
  });
  after(async () => {
    await gw?.stop();
    await mock?.close();
  });
  beforeEach(() => {
    clock = sinon.useFakeTimers({ now: T0, toFake: ['Date'] });
  });
  afterEach(() => clock.restore());

  for (const { unit, boundary } of UNITS) {
    it(`${unit}: refused until ${boundary}, then a fresh window`, async () => {
      const metadata = { unit };
      await createPolicy(gw, {
        conditions: [{ key: 'metadata.unit', value: unit }], group_by: [{ key: 'api_key' }], type: 'requests', unit, value: 2,
      });
      const end = Date.parse(boundary);
      const wait = Math.ceil((end - T0) / 1000);
      expect((await chat(gw, mock, { metadata })).status).to.equal(200);
      const second = await chat(gw, mock, { metadata });
      expect(second.headers.get('x-ratelimit-reset')).to.equal(String(wait));
      const refused = await chat(gw, mock, { metadata });
      expect(refused.status).to.equal(429);
      expect(refused.headers.get('retry-after')).to.equal(String(wait));

      clock.setSystemTime(end - 1);
      const last = await chat(gw, mock, { metadata });
      expect(last.status).to.equal(429);
      expect(last.headers.get('retry-after')).to.equal('1');

      clock.setSystemTime(end);
      const fresh = await chat(gw, mock, { metadata });
      expect(fresh.status).to.equal(200);
      expect(fresh.headers.get('x-ratelimit-remaining')).to.equal('1');
    });
  }
});
