/**
 * policy.circuit-breaker: stops sending to a target that keeps failing (config `cb_config`,
 * inherited by children). Wraps each target's call outermost (WrapStage.BREAKER), so it sees one
 * result per target after retries and time-outs. An open circuit answers 503 `circuit_open`
 * without calling the provider; a fallback strategy moves on from it like from any failure.
 * Targets without `cb_config` are not wrapped at all.
 *
 * State lives in the StateStore (Services.State), so several instances share it: some state
 * plugin (`state.memory`, or a Redis one) must be applied before this one. It is resolved at first
 * use, so any plugin providing the token will do; none at all fails the boot. Opening and closing
 * are announced on the invalidation bus (topic `circuits`, id `<identity>@<opened at ms>`, or
 * `<identity>@` when closed), so every instance sharing a relay follows at once.
 */
import { Services, WrapStage, changesIn, type Plugin, type PluginApi, type StateStore } from '../../../core/index.js';
import { BreakerTable } from './table.js';
import { CIRCUIT_BREAKER_CONFIG } from './config-keys.js';

export const CIRCUITS_TOPIC = 'circuits';

/** Our cap (the spec sets only the minimum): a longer cooldown is a target switched off by accident. */
export const MAX_COOLDOWN_MS = 24 * 60 * 60_000;
/** At most one store-failure warning per this interval, so an outage does not flood the log. */
const STORE_WARNING_INTERVAL_MS = 10_000;

export default class CircuitBreakerPlugin implements Plugin {
  static readonly manifest = { id: 'policy.circuit-breaker', description: 'Circuit breaker per target (cb_config)', requires: [Services.State], config: CIRCUIT_BREAKER_CONFIG };

  apply(api: PluginApi): void {
    if (!api.services.has(Services.State)) {
      throw new Error('no state store is registered (Services.State): load a state plugin such as "state.memory" '
        + '(or a Redis state plugin for several instances) before "policy.circuit-breaker"');
    }
    let store: StateStore | undefined;
    let warnedAt = -Infinity;
    const changes = changesIn(api.services);
    const table = new BreakerTable({
      announce: (identity, openedAt) => changes.publish(CIRCUITS_TOPIC, `${identity}@${openedAt ?? ''}`),
      store: () => (store ??= api.services.get(Services.State)),
      onStoreError: (error) => {
        const at = performance.now();
        if (at - warnedAt < STORE_WARNING_INTERVAL_MS) return;
        warnedAt = at;
        api.logger.warn({ err: error }, 'state store failed: circuit breakers use this instance\'s own view');
      },
    });

    changes.subscribe(CIRCUITS_TOPIC, (id) => {
      if (id === undefined) return table.resyncAll();
      const at = id.lastIndexOf('@');
      if (at <= 0) return;
      const identity = id.slice(0, at);
      const openedAt = at === id.length - 1 ? undefined : Number(id.slice(at + 1));
      if (openedAt === undefined) table.known(identity)?.heard(undefined);
      else if (Number.isFinite(openedAt)) table.breaker(identity).heard(openedAt);
    });

    api.hooks.validateConfig.tap(api.id, (node, path, issues) => {
      const cooldown = node.cb_config?.cooldown_interval;
      if (cooldown !== undefined && cooldown > MAX_COOLDOWN_MS) {
        issues.push({ path: `${path ? path + '.' : ''}cb_config.cooldown_interval`, rule: `must be <= ${MAX_COOLDOWN_MS} (24 hours)` });
      }
    });

    api.hooks.wrapAttempt.tap({ name: api.id, stage: WrapStage.BREAKER }, (run, target) => {
      const cb = target.cb_config;
      if (!cb) return run;
      const entry = table.entryFor(target, cb);
      return (attempt) => entry.breaker.run(run, attempt, entry.policy);
    });
  }
}
