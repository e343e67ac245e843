/**
 * Cumulative weights of a node's targets, computed once per targets array: configs are frozen
 * after parsing and cached by their source, so the same array comes back request after request.
 */
import type { ConfigNode } from '../../../core/index.js';

/** A target without `weight` weighs 1 (spec §2.1 names no default; 1 makes "no weights" mean "uniform"). */
export const DEFAULT_WEIGHT = 1;

const cache = new WeakMap<readonly ConfigNode[], Float64Array>();

/** `cumulative[i]` is the sum of the weights of targets 0..i. */
export function cumulativeWeights(targets: readonly ConfigNode[]): Float64Array {
  let cumulative = cache.get(targets);
  if (cumulative) return cumulative;
  cumulative = new Float64Array(targets.length);
  let sum = 0;
  for (let i = 0; i < targets.length; i++) {
    sum += targets[i]!.weight ?? DEFAULT_WEIGHT;
    cumulative[i] = sum;
  }
  cache.set(targets, cumulative);
  return cumulative;
}

/** Why no target can be chosen, or undefined when one can (the total must be positive and finite). */
export function noChoiceReason(cumulative: Float64Array): string | undefined {
  const total = cumulative.length > 0 ? cumulative[cumulative.length - 1]! : 0;
  if (total === Infinity) return 'the weights of the targets must add up to a finite number';
  if (!(total > 0)) return 'every target has weight 0: strategy.mode "loadbalance" needs at least one target with a weight above 0';
  return undefined;
}

/**
 * The index of the target a uniform draw `random` in [0, 1) lands on. Targets of weight 0 span
 * an empty interval and are never chosen. Needs a cumulative array without `noChoiceReason`.
 */
export function pick(cumulative: Float64Array, random: number): number {
  const last = cumulative.length - 1;
  const point = random * cumulative[last]!;
  let i = 0;
  // Linear: a node has a handful of targets; a binary search would cost more than it saves.
  while (i < last && point >= cumulative[i]!) i++;
  return i;
}
