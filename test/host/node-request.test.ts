/** NodeRequest as its own abort source: listeners for a call's lifetime, the first reason, a signal made only when read. */
import { expect } from 'chai';
import type { IncomingMessage } from 'node:http';
import { NodeRequest } from '../../host/node-adapter.js';

describe('NodeRequest abort source', () => {
  /** A request whose client "goes away" when the returned function is called. */
  function request(): { req: NodeRequest; goAway: () => void } {
    const req = new NodeRequest({ socket: {} } as IncomingMessage, 'POST', '/v1/chat/completions', '', {});
    return { req, goAway: () => req.clientGone() };
  }

  it('calls every listener registered at the time once, and none that was removed', () => {
    const { req, goAway } = request();
    const calls: string[] = [];
    const a = () => calls.push('a');
    const b = () => calls.push('b');
    const c = () => calls.push('c');
    req.onAbort(a);
    req.onAbort(b);
    req.onAbort(c);
    req.offAbort(b);
    expect(req.aborted).to.equal(false);
    goAway();
    goAway();
    expect(calls).to.deep.equal(['a', 'c']);
    expect(req.aborted).to.equal(true);
    expect((req.reason as { code?: string }).code).to.equal('client_closed');
  });

  it('frees the slot of a removed listener for the next call', () => {
    const { req, goAway } = request();
    const calls: string[] = [];
    const first = () => calls.push('first');
    req.onAbort(first);
    req.offAbort(first);
    req.onAbort(() => calls.push('second'));
    goAway();
    expect(calls).to.deep.equal(['second']);
  });

  it('keeps the first reason', () => {
    const { req, goAway } = request();
    const shutdown = new Error('shutting down');
    req.abort(shutdown);
    goAway();
    expect(req.reason).to.equal(shutdown);
  });

  it('makes no signal until one is read; one read later is already aborted with the reason', () => {
    const { req, goAway } = request();
    goAway();
    const signal = req.signal;
    expect(signal.aborted).to.equal(true);
    expect(signal.reason).to.equal(req.reason);
    expect(req.signal).to.equal(signal);
  });

  it('aborts a signal read before the client went away', () => {
    const { req, goAway } = request();
    const signal = req.signal;
    expect(signal.aborted).to.equal(false);
    goAway();
    expect(signal.aborted).to.equal(true);
    expect((signal.reason as { code?: string }).code).to.equal('client_closed');
  });
});
