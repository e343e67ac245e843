/**
 * Who taps what: each plugin gets its own tap-only view of the hooks, which records the plugin
 * and the stage name of every tap, refuses stages that are not named, and refuses any tap once
 * the gateway runs. The record is what `--describe` prints; it costs nothing per request.
 */
import { Stage, WrapStage, type Hooks, type PluginHooks } from './hooks.js';

export type HookName = keyof Hooks;

/** One tap as `--describe` shows it, in run order. */
export interface TapDescription {
  plugin: string;
  stage: string;
}

interface Recorded {
  plugin: string;
  stage: string;
}

type TapOptions = string | { name?: string; stage?: number; before?: string | string[] };

const STAGE_NAMES = namesOf(Stage);
const WRAP_STAGE_NAMES = namesOf(WrapStage);

function namesOf(stages: Record<string, number>): Map<number, string> {
  return new Map(Object.entries(stages).map(([name, value]) => [value, name]));
}

/** The name of a tap's stage on `hook`, or undefined when the number has no name. */
export function stageName(hook: HookName, stage: number | undefined): string | undefined {
  if (stage === undefined || stage === 0) return 'DEFAULT';
  return (hook === 'wrapAttempt' ? WRAP_STAGE_NAMES : STAGE_NAMES).get(stage);
}

export class AlreadyRunningError extends Error {
  constructor(what: string, plugin?: string) {
    super(`${what}${plugin ? ` (by plugin "${plugin}")` : ''}: the gateway is already running; register at boot, in apply()`);
    this.name = 'AlreadyRunningError';
  }
}

export class HookTaps {
  readonly #byFn = new WeakMap<Function, Recorded>();
  #running = false;

  constructor(readonly hooks: Hooks) {}

  /** The hooks as plugin `plugin` sees them: tap, never call; every tap recorded. */
  viewFor(plugin: string): PluginHooks {
    const view: Record<string, unknown> = {};
    for (const [name, hook] of Object.entries(this.hooks)) {
      const hookName = name as HookName;
      const h = hook as unknown as Record<string, ((...a: unknown[]) => unknown) | undefined>;
      const tapWith = (method: 'tap' | 'tapAsync' | 'tapPromise') => {
        const original = h[method];
        if (!original) return undefined;
        return (options: TapOptions, fn: Function) => {
          this.#record(hookName, plugin, options, fn);
          return original.call(hook, options, fn);
        };
      };
      view[name] = Object.freeze({
        tap: tapWith('tap'),
        tapAsync: tapWith('tapAsync'),
        tapPromise: tapWith('tapPromise'),
        intercept: (interceptor: unknown) => {
          if (this.#running) throw new AlreadyRunningError(`an interceptor on ${name} cannot be added`, plugin);
          return h['intercept']!.call(hook, interceptor);
        },
      });
    }
    return Object.freeze(view) as unknown as PluginHooks;
  }

  #record(hook: HookName, plugin: string, options: TapOptions, fn: Function): void {
    if (this.#running) throw new AlreadyRunningError(`a tap on ${hook} cannot be added`, plugin);
    const stage = typeof options === 'object' ? options.stage : undefined;
    const name = stageName(hook, stage);
    if (name === undefined) {
      const names = hook === 'wrapAttempt' ? 'WrapStage' : 'Stage';
      throw new Error(`plugin "${plugin}" taps ${hook} at stage ${stage}: use a named stage (${names}.*)`);
    }
    if (typeof fn === 'function') this.#byFn.set(fn, { plugin, stage: name });
  }

  /** From now on every tap and interceptor throws, through the views and on the hooks themselves. */
  freeze(): void {
    this.#running = true;
    for (const [name, hook] of Object.entries(this.hooks)) {
      const refuse = () => {
        throw new AlreadyRunningError(`a tap on ${name} cannot be added`);
      };
      // Own properties shadow tapable's methods; calling a hook is untouched.
      Object.assign(hook, { tap: refuse, tapAsync: refuse, tapPromise: refuse, intercept: refuse });
    }
  }

  /** Each hook's taps in run order (tapable keeps `taps` sorted by stage, then registration). */
  describe(hook: HookName): TapDescription[] {
    const taps = (this.hooks[hook] as unknown as { taps: Array<{ name: string; stage?: number; fn: Function }> }).taps;
    return taps.map((tap) => {
      const known = this.#byFn.get(tap.fn);
      return known ?? { plugin: tap.name, stage: stageName(hook, tap.stage) ?? String(tap.stage) };
    });
  }
}
