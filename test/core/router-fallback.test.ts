/** Router fallback routes (`/prefix/*`): matched last, longest prefix first, 405 kept for known paths. */
import { expect } from 'chai';
import { Router, type RouteDef } from '../../core/index.js';

const route = (method: string, path: string): RouteDef => ({ method, path, handler: async () => ({ status: 204, headers: {} }) });

describe('core: router fallback routes', () => {
  const router = new Router();
  const chat = route('POST', '/v1/chat/completions');
  const batch = route('GET', '/v1/batches/:id');
  const anyGet = route('GET', '/v1/*');
  const anyPost = route('POST', '/v1/*');
  const deep = route('GET', '/v1/deep/*');
  for (const r of [anyGet, chat, batch, anyPost, deep]) router.add(r);

  it('leaves static and parameter routes first', () => {
    expect(router.match('POST', '/v1/chat/completions').route).to.equal(chat);
    expect(router.match('GET', '/v1/batches/b1')).to.deep.include({ route: batch, params: { id: 'b1' } });
  });

  it('serves any other path below its prefix, the rest undecoded as `*`', () => {
    expect(router.match('GET', '/v1/vector_stores/vs%2F1')).to.deep.equal({ route: anyGet, params: { '*': 'vector_stores/vs%2F1' } });
    expect(router.match('post', '/v1/uploads')).to.deep.equal({ route: anyPost, params: { '*': 'uploads' } });
  });

  it('prefers the longest prefix', () => {
    expect(router.match('GET', '/v1/deep/x').route).to.equal(deep);
  });

  it('keeps 405 for a path another route serves, and for a method the fallback lacks', () => {
    expect(router.match('GET', '/v1/chat/completions')).to.deep.equal({ allowed: ['POST'] });
    expect(router.match('DELETE', '/v1/batches/b1')).to.deep.equal({ allowed: ['GET'] });
    expect(router.match('DELETE', '/v1/anything')).to.deep.equal({ allowed: ['GET', 'POST'] });
  });

  it('does not serve the prefix itself or paths outside it', () => {
    expect(router.match('GET', '/v1/')).to.deep.equal({ allowed: [] });
    expect(router.match('GET', '/v2/models')).to.deep.equal({ allowed: [] });
    expect(router.match('GET', '/v1')).to.deep.equal({ allowed: [] });
  });

  it('refuses a second fallback for the same method and prefix, and wildcards inside a path', () => {
    expect(() => router.add(route('GET', '/v1/*'))).to.throw(/registered twice/);
    expect(() => router.add(route('GET', '/v1/:id/*'))).to.throw(/static prefix/);
  });

  it('lists fallbacks with the other routes', () => {
    expect(router.list()).to.include.members([anyGet, anyPost, deep, chat, batch]);
  });
});
