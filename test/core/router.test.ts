import { expect } from 'chai';
import { Router, type RouteDef } from '../../core/index.js';

const route = (method: string, path: string): RouteDef => ({ method, path, handler: async () => ({ status: 200, headers: {} }) });

describe('Router', () => {
  it('matches static paths, then parameter patterns, most specific first', () => {
    const r = new Router();
    r.add(route('GET', '/v1/batches/:id'));
    r.add(route('GET', '/v1/batches/list'));
    r.add(route('POST', '/v1/batches/:id/cancel'));
    expect(r.match('GET', '/v1/batches/list')).to.have.property('route').with.property('path', '/v1/batches/list');
    const m = r.match('GET', '/v1/batches/b%201');
    expect(m.route?.path).to.equal('/v1/batches/:id');
    expect(m.route ? m.params : undefined).to.deep.equal({ id: 'b 1' });
    expect(r.match('POST', '/v1/batches/x/cancel').route?.path).to.equal('/v1/batches/:id/cancel');
  });

  it('reports allowed methods for a known path and nothing for an unknown one', () => {
    const r = new Router();
    r.add(route('POST', '/v1/chat/completions'));
    r.add(route('GET', '/v1/items/:id'));
    expect(r.match('GET', '/v1/chat/completions')).to.deep.equal({ allowed: ['POST'] });
    expect(r.match('DELETE', '/v1/items/3')).to.deep.equal({ allowed: ['GET'] });
    expect(r.match('GET', '/v1/unknown')).to.deep.equal({ allowed: [] });
    expect(r.match('GET', '/v1/items/')).to.deep.equal({ allowed: [] });
  });

  it('refuses a route registered twice', () => {
    const r = new Router();
    r.add(route('GET', '/a'));
    expect(() => r.add(route('GET', '/a'))).to.throw('route GET /a is registered twice');
    r.add(route('GET', '/b/:x'));
    expect(() => r.add(route('GET', '/b/:x'))).to.throw('registered twice');
  });

  it('does not throw on malformed percent-encoding', () => {
    const r = new Router();
    r.add(route('GET', '/v1/items/:id'));
    expect(r.match('GET', '/v1/items/%E0%A4%A')).to.deep.equal({ allowed: [] });
  });
});
