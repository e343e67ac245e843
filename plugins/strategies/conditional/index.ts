/**
 * strategy.conditional: serves from the target named by the first condition whose query matches
 * the request ({metadata, params, url}), else from `strategy.default`. Queries are checked and
 * compiled when the config is validated (validateConfig), so a request only runs predicates.
 */
import {
  Errors, failed, joinPath, Type,
  type ConfigNode, type Plugin, type PluginApi, type RequestContext, type RunTarget, type Static, type Strategy,
} from '../../../core/index.js';
import { ConditionalCompiler, type CompiledConditional } from './compiled.js';
import { RegexCache } from './regex-cache.js';
import { CONDITIONAL_CONFIG } from './config-keys.js';

const Options = Type.Object({
  /** How deeply `$and` / `$or` may nest in one query. */
  maxQueryDepth: Type.Integer({ minimum: 1, maximum: 32, default: 8 }),
  /** Longest `$regex` pattern accepted (characters): patterns run on the request path. */
  maxRegexLength: Type.Integer({ minimum: 1, default: 1000 }),
  /** How many distinct `$regex` patterns keep their compiled RegExp across configs. */
  regexCacheSize: Type.Integer({ minimum: 0, default: 1000 }),
}, { additionalProperties: false });

type Options = Static<typeof Options>;

export function createConditionalStrategy(compiler: ConditionalCompiler): Strategy {
  return {
    mode: 'conditional',
    route(node: ConfigNode, run: RunTarget, ctx: RequestContext) {
      const compiled = compiler.get(node.strategy!, node.targets ?? []);
      const index = chooseTarget(compiled, ctx);
      return typeof index === 'number' ? run(index) : Promise.resolve(failed(index));
    },
  };
}

function chooseTarget(compiled: CompiledConditional, ctx: RequestContext) {
  // Validation rejects such configs first; these guard configs that skipped it.
  const issue = compiled.issues[0];
  if (issue) return Errors.invalidConfig(issue.path, issue.rule);
  for (const rule of compiled.rules) {
    if (!rule.match(ctx)) continue;
    if (rule.index >= 0) return rule.index;
    return Errors.invalidConfig('strategy.conditions', 'the matching condition names no target of this node');
  }
  if (compiled.defaultIndex >= 0) return compiled.defaultIndex;
  return Errors.invalidConfig('strategy.default', 'no condition matched the request and no default target is set');
}

export default class ConditionalStrategyPlugin implements Plugin<Options> {
  static readonly manifest = {
    id: 'strategy.conditional',
    description: 'Routes by queries over metadata, params and url',
    config: CONDITIONAL_CONFIG,
    options: Options,
  };

  apply(api: PluginApi<Options>): void {
    const { maxQueryDepth, maxRegexLength, regexCacheSize } = api.options;
    const compiler = new ConditionalCompiler({
      limits: { maxDepth: maxQueryDepth, maxRegexLength },
      regexes: new RegexCache(regexCacheSize),
    });
    api.registries.strategies.register('conditional', createConditionalStrategy(compiler), api.id);
    api.hooks.validateConfig.tap(api.id, (node, path, issues) => {
      const strategy = node.strategy;
      if (strategy?.mode !== 'conditional' || !node.targets) return;
      for (const issue of compiler.get(strategy, node.targets).issues) {
        issues.push({ path: joinPath(path, issue.path), rule: issue.rule });
      }
    });
  }
}
