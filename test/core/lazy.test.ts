/** core/lazy.ts: one import however many callers ask, `loaded` once there, a failed import retried. */
import { expect } from 'chai';
import { lazy, warmLazyModules } from '../../core/lazy.js';

/** Waits (at most 5 s: other warm modules of this process may be imported first) until `done()`. */
async function until(done: () => boolean): Promise<void> {
  for (let waited = 0; !done() && waited < 5000; waited += 10) await new Promise((r) => setTimeout(r, 10));
}

describe('lazy', () => {
  it('imports once for callers asking at the same time, and gives the module without a promise afterwards', async () => {
    let loads = 0;
    const module = lazy(async () => {
      loads++;
      await new Promise((r) => setTimeout(r, 5));
      return { answer: 42 };
    });
    expect(module.loaded).to.equal(undefined);
    const [a, b] = await Promise.all([module(), module()]);
    expect(loads).to.equal(1);
    expect(a).to.equal(b);
    expect(module.loaded).to.equal(a);
    expect(await module()).to.equal(a);
    expect(loads).to.equal(1);
  });

  it('reports a failed import to its caller and tries again on the next call', async () => {
    let loads = 0;
    const module = lazy(async () => {
      loads++;
      if (loads === 1) throw new Error('not there yet');
      return { ok: true };
    });
    let error: Error | undefined;
    await module().catch((e: Error) => (error = e));
    expect(error?.message).to.equal('not there yet');
    expect(module.loaded).to.equal(undefined);
    expect(await module()).to.deep.equal({ ok: true });
    expect(loads).to.equal(2);
  });

  it('imports a module marked warm in the background once asked to, and not before', async () => {
    let loads = 0;
    const module = lazy(async () => {
      loads++;
      return { warm: true };
    }, { warm: true });
    await new Promise((r) => setImmediate(r));
    expect(loads).to.equal(0);
    warmLazyModules();
    await until(() => module.loaded !== undefined);
    expect(module.loaded).to.deep.equal({ warm: true });
    expect(loads).to.equal(1);
  });

  it('a warm module that fails to import is left for its first real use to report', async () => {
    let loads = 0;
    const module = lazy(async () => {
      loads++;
      throw new Error('broken');
    }, { warm: true });
    warmLazyModules();
    await until(() => loads > 0);
    expect(loads).to.equal(1);
    let error: Error | undefined;
    await module().catch((e: Error) => (error = e));
    expect(error?.message).to.equal('broken');
  });
});
