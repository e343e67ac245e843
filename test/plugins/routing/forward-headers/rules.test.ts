/** Unit tests of the forward_headers name rules. */
import { expect } from 'chai';
import { allowedNames, checkedNames, forwardRule, listedInConnection, remember } from '../../../../plugins/routing/forward-headers/header-rules.js';

describe('forward-headers: rules', () => {
  it('refuses gateway, proxy, credential and hop-by-hop names, in any case', () => {
    const refused = [
      'x-gw-api-key', 'X-GW-Trace-Id', 'x-gw-config', 'x-gw-anything',
      'authorization', 'Authorization', 'host', 'Content-Length', 'content-encoding', 'accept-encoding', 'expect',
      'x-forwarded-for', 'X-Forwarded-Host', 'forwarded',
      'connection', 'Keep-Alive', 'te', 'TE', 'trailer', 'transfer-encoding', 'upgrade',
      'proxy-authorization', 'Proxy-Authenticate', 'proxy-connection',
    ];
    for (const name of refused) expect(forwardRule(name), name).to.match(/is never forwarded: /);
  });

  it('refuses names that are not HTTP tokens', () => {
    for (const name of ['x foo', 'x:foo', 'x-foo\n', 'x/foo', 'é']) expect(forwardRule(name), name).to.match(/is not a valid header name/);
  });

  it('accepts ordinary names', () => {
    for (const name of ['x-custom', 'OpenAI-Beta', 'user-agent', 'cookie', 'x-gw', 'x-forwarded', 'proxyish', 'tea']) {
      expect(forwardRule(name), name).to.equal(undefined);
    }
  });

  it('remembers a checked list lower-cased and de-duplicated, by identity', () => {
    const list = Object.freeze(['X-One', 'x-one', 'X-Two']);
    expect(checkedNames(list)).to.equal(undefined);
    const names = remember(list);
    expect(names).to.deep.equal(['x-one', 'x-two']);
    expect(checkedNames(list)).to.equal(names);
    expect(checkedNames(['X-One'])).to.equal(undefined);
  });

  it('filters an unchecked list to forwardable names', () => {
    expect(allowedNames(['X-A', 'authorization', 'x-gw-api-key', 'x-a'])).to.deep.equal(['x-a']);
  });

  it('reads the names a Connection header lists', () => {
    expect(listedInConnection(undefined, 'x-foo')).to.equal(false);
    expect(listedInConnection('Keep-Alive, X-Foo', 'x-foo')).to.equal(true);
    expect(listedInConnection('close,x-foo ,x-bar', 'x-bar')).to.equal(true);
    expect(listedInConnection('keep-alive, x-foo', 'x-foobar')).to.equal(false);
  });
});
