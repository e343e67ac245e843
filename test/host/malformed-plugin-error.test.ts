/**
 * A plugin written in plain JavaScript may build a GatewayError the wrong way (positional
 * arguments, a status out of range): the caller still gets an answer in the envelope, never a
 * request left hanging.
 */
import { expect } from 'chai';
import { definePlugin, GatewayError, Type } from '../../host/index.js';
import { startGateway, TEST_API_KEY, type TestGateway } from '../helpers/gateway.js';

const Thrower = definePlugin({
  id: 'test.bad-error',
  options: Type.Object({}),
  apply(api) {
    api.hooks.onRequest.tap('test.bad-error', (ctx) => {
      const how = ctx.request.headers['x-test-throw'];
      // Deliberately outside the types, as an untyped plugin would write it.
      if (how === 'positional') throw new (GatewayError as any)(418, 'teapot');
      if (how === 'range') throw new GatewayError({ status: 1000, message: 'out of range' });
    });
  },
});

describe('a plugin that builds a GatewayError wrongly', function () {
  this.timeout(10_000);
  let gw: TestGateway;
  before(async () => {
    gw = await startGateway({ plugins: [Thrower] });
  });
  after(async () => gw?.stop());

  for (const how of ['positional', 'range']) {
    it(`answers 500 in the envelope (${how})`, async () => {
      const res = await fetch(`${gw.url}/v1/configs`, { headers: { 'x-gw-api-key': TEST_API_KEY, 'x-test-throw': how }, signal: AbortSignal.timeout(3000) });
      expect(res.status).to.equal(500);
      const body = await res.json() as { error: { message: string; type: string } };
      expect(body.error.type).to.be.a('string');
      expect(body.error.message).to.be.a('string').and.not.equal('');
    });
  }
});
