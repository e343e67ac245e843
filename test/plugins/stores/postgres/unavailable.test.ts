/** Which node-postgres failures are "the store is unavailable" (503) and which are the statement's own fault. */
import { expect } from 'chai';
import { unavailableReason } from '../../../../plugins/stores/postgres/unavailable.js';

describe('store.postgres: unavailable or not', () => {
  it('takes network failures, a server going away and timeouts as unavailable, with a short reason', () => {
    expect(unavailableReason(Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:1'), { code: 'ECONNREFUSED' }))).to.equal('cannot reach the server (ECONNREFUSED)');
    expect(unavailableReason(Object.assign(new AggregateError([Object.assign(new Error('x'), { code: 'ECONNREFUSED' })]), {}))).to.equal('cannot reach the server (ECONNREFUSED)');
    expect(unavailableReason(Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' }))).to.equal('the server is shutting down');
    expect(unavailableReason(Object.assign(new Error('canceling statement due to statement timeout'), { code: '57014' }))).to.equal('a statement ran past the statement timeout');
    expect(unavailableReason(Object.assign(new Error('x'), { code: '08006' }))).to.equal('the connection failed (08006)');
    expect(unavailableReason(new Error('timeout exceeded when trying to connect'))).to.equal('no connection became free in time');
    expect(unavailableReason(new Error('Connection terminated unexpectedly'))).to.equal('the connection was lost');
    expect(unavailableReason(new Error('Query read timeout'))).to.equal('a statement got no answer in time');
  });

  it('leaves constraint and SQL errors to the caller', () => {
    expect(unavailableReason(Object.assign(new Error('duplicate key value violates unique constraint'), { code: '23505' }))).to.equal(undefined);
    expect(unavailableReason(Object.assign(new Error('syntax error at or near "SELEC"'), { code: '42601' }))).to.equal(undefined);
    expect(unavailableReason(new Error('something else'))).to.equal(undefined);
    expect(unavailableReason(null)).to.equal(undefined);
    expect(unavailableReason('text')).to.equal(undefined);
  });
});
