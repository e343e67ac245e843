/**
 * A conditional node compiled once: one predicate per condition and the index of the target each
 * `then` / `default` names. Cached by the node's strategy object, which configs share across
 * requests (parsed configs are frozen and cached by their source); invalid nodes cache their issues.
 */
import type { ConfigNode, Issue, StrategyConfig } from '../../../core/index.js';
import { compileQuery, type Predicate, type QueryEnv } from './query.js';

export interface Rule {
  readonly match: Predicate;
  /** Index of the target `then` names; -1 when none has that name (the config schema reports it). */
  readonly index: number;
}

export interface CompiledConditional {
  /** The targets the indexes refer to: a node with other targets is compiled afresh. */
  readonly targets: readonly ConfigNode[];
  readonly rules: readonly Rule[];
  readonly defaultIndex: number;
  /** Issues relative to the node (`strategy.conditions.0.query...`); empty when valid. */
  readonly issues: readonly Issue[];
}

export class ConditionalCompiler {
  readonly #cache = new WeakMap<StrategyConfig, CompiledConditional>();
  constructor(private readonly env: QueryEnv) {}

  get(strategy: StrategyConfig, targets: readonly ConfigNode[]): CompiledConditional {
    const hit = this.#cache.get(strategy);
    if (hit && hit.targets === targets) return hit;
    const compiled = this.#compile(strategy, targets);
    this.#cache.set(strategy, compiled);
    return compiled;
  }

  #compile(strategy: StrategyConfig, targets: readonly ConfigNode[]): CompiledConditional {
    const issues: Issue[] = [];
    const rules: Rule[] = [];
    const conditions = strategy.conditions ?? [];
    for (let i = 0; i < conditions.length; i++) {
      const { query, then } = conditions[i]!;
      const match = compileQuery(query, `strategy.conditions.${i}.query`, this.env, issues);
      if (match) rules.push({ match, index: indexOfName(targets, then) });
    }
    const defaultIndex = strategy.default === undefined ? -1 : indexOfName(targets, strategy.default);
    return { targets, rules, defaultIndex, issues };
  }
}

/** The first target with that name (names are not required to be unique; the first wins). */
function indexOfName(targets: readonly ConfigNode[], name: string): number {
  for (let i = 0; i < targets.length; i++) if (targets[i]!.name === name) return i;
  return -1;
}
