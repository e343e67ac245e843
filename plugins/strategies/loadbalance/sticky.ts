/**
 * Sticky load balancing: the first choice for a sticky key (sticky-key.ts) is kept in the state
 * store (Services.State: process memory, or Redis shared by a fleet) for `ttl` seconds from when it
 * was made, so every instance sends the same user (conversation, tenant ...) to the same target.
 *
 *   get(key) ── kept index ──────────────────────────────▶ run it
 *        └──── none: weighted draw, setIfAbsent(key) ──▶ run it (a concurrent first choice that won is taken instead)
 *   the target answered `circuit_open` (its breaker skipped it, no provider call) ──▶ draw again among
 *   the targets not yet tried, keep that choice (set, fresh ttl), run it; until one is not open or none is left
 *
 * The store never fails a request: when it errs, the request is balanced as without stickiness.
 */
import {
  releaseOutcome, type ConfigNode, type Outcome, type RequestContext, type RunTarget, type StateStore,
} from '../../../core/index.js';
import { DEFAULT_STICKY_TTL_SECONDS, type StickyConfig } from './config-keys.js';
import { stickyKey } from './sticky-key.js';
import { DEFAULT_WEIGHT } from './weights.js';

export interface StickyDeps {
  /** The shared store, or undefined when no state plugin is loaded (validation refuses such configs first). */
  store(): StateStore | undefined;
  onStoreError(error: unknown): void;
  random(): number;
}

export async function routeSticky(
  node: ConfigNode, sticky: StickyConfig, run: RunTarget, ctx: RequestContext, path: string, deps: StickyDeps,
): Promise<Outcome> {
  const targets = node.targets ?? [];
  const store = deps.store();
  const key = stickyKey(ctx, node, path, sticky.hash_fields ?? []);
  const ttlMs = (sticky.ttl ?? DEFAULT_STICKY_TTL_SECONDS) * 1000;
  const tried = new Set<number>();

  let index = store ? await read(store, key, targets, deps) : undefined;
  if (index === undefined) {
    index = draw(targets, tried, deps.random())!;
    if (store) index = await claim(store, key, index, ttlMs, targets, deps);
  }
  for (;;) {
    tried.add(index);
    const outcome = await run(index);
    if (!isCircuitOpen(outcome) || ctx.request.signal.aborted) return outcome;
    const next = draw(targets, tried, deps.random());
    if (next === undefined) return outcome;
    releaseOutcome(outcome);
    index = next;
    if (store) await write(store, key, index, ttlMs, deps);
  }
}

/** A weighted draw among the targets not in `excluded` (weight 0 never), or undefined when none is left. */
export function draw(targets: readonly ConfigNode[], excluded: ReadonlySet<number>, random: number): number | undefined {
  let total = 0;
  for (let i = 0; i < targets.length; i++) if (!excluded.has(i)) total += weightOf(targets[i]!);
  if (!(total > 0)) return undefined;
  const point = random * total;
  let sum = 0;
  let last: number | undefined;
  for (let i = 0; i < targets.length; i++) {
    const weight = excluded.has(i) ? 0 : weightOf(targets[i]!);
    if (weight <= 0) continue;
    sum += weight;
    last = i;
    if (point < sum) return i;
  }
  return last;
}

function weightOf(target: ConfigNode): number {
  return target.weight ?? DEFAULT_WEIGHT;
}

function isCircuitOpen(outcome: Outcome): boolean {
  return outcome.error?.code === 'circuit_open';
}

/** The kept index when it still names a target that can be chosen. */
async function read(store: StateStore, key: string, targets: readonly ConfigNode[], deps: StickyDeps): Promise<number | undefined> {
  try {
    return validIndex(await store.get(key), targets);
  } catch (e) {
    deps.onStoreError(e);
    return undefined;
  }
}

/** Keeps `index` unless another request (maybe on another instance) kept its choice first: then that one. */
async function claim(store: StateStore, key: string, index: number, ttlMs: number, targets: readonly ConfigNode[], deps: StickyDeps): Promise<number> {
  try {
    if (await store.setIfAbsent(key, String(index), ttlMs)) return index;
    return validIndex(await store.get(key), targets) ?? index;
  } catch (e) {
    deps.onStoreError(e);
    return index;
  }
}

async function write(store: StateStore, key: string, index: number, ttlMs: number, deps: StickyDeps): Promise<void> {
  try {
    await store.set(key, String(index), ttlMs);
  } catch (e) {
    deps.onStoreError(e);
  }
}

function validIndex(value: string | undefined, targets: readonly ConfigNode[]): number | undefined {
  if (value === undefined) return undefined;
  const index = Number(value);
  if (!Number.isInteger(index) || index < 0 || index >= targets.length || !(weightOf(targets[index]!) > 0)) return undefined;
  return index;
}
