/**
 * The pending timers that one module set, under sinon's fake clock. The fake clock counts every
 * timer set while it is installed, also those of work that earlier test files left running in the
 * background (undici's socket timers, a pool that is still closing), so `clock.countTimers()` can
 * be 1 where the code under test left nothing behind. This counts only the timers that code in
 * `module` set itself: its path from the project's root without the extension, found as the source
 * map shows it (the .ts file) or as built (dist/, the .js file).
 *
 * It wraps the fake clock's setTimeout and clearTimeout; its `restore()` takes the wrappers off and
 * then restores the clock, in that order (the other order would leave the fake installed).
 */
import { fileURLToPath } from 'node:url';
import type sinon from 'sinon';

export interface OwnTimers {
  /** Timers the module set that have neither fired nor been cleared. */
  pending(): number;
  /** Takes the wrappers off, then restores the fake clock. */
  restore(): void;
}

const root = fileURLToPath(new URL('../../../', import.meta.url));

export function timersSetBy(clock: sinon.SinonFakeTimers, module: string): OwnTimers {
  const paths = [`${root}${module}.ts`, `${root}dist/${module}.js`];
  /** Whether the frame that called setTimeout (after this file's own two) lies in the module. */
  const setByModule = () => {
    const caller = (new Error().stack ?? '').split('\n')[3] ?? '';
    return paths.some((path) => caller.includes(path));
  };
  const fakeSet = globalThis.setTimeout;
  const fakeClear = globalThis.clearTimeout;
  const pending = new Set<unknown>();
  const idOf = (timer: unknown) => (typeof timer === 'object' && timer !== null ? Number(timer) : timer);

  globalThis.setTimeout = ((callback: (...args: unknown[]) => void, ms?: number, ...args: unknown[]) => {
    if (!setByModule()) return fakeSet(callback, ms, ...args);
    const timer = fakeSet((...fired: unknown[]) => {
      pending.delete(idOf(timer));
      callback(...fired);
    }, ms, ...args);
    pending.add(idOf(timer));
    return timer;
  }) as typeof setTimeout;
  globalThis.clearTimeout = ((timer?: Parameters<typeof clearTimeout>[0]) => {
    pending.delete(idOf(timer));
    fakeClear(timer);
  }) as typeof clearTimeout;

  return {
    pending: () => pending.size,
    restore() {
      globalThis.setTimeout = fakeSet;
      globalThis.clearTimeout = fakeClear;
      clock.restore();
    },
  };
}
