/**
 * `default.modelRules`: the allowed models are the union of the lists of every metadata rule the
 * request matches (`x-gw-metadata` key = value), or `rules.defaults` when none matches. Passes
 * when the request's model is allowed (is not, with `not`). Nothing allowed fails.
 */
import { defineCheck, type Issue } from '../../core/index.js';
import { ModelRulesParams } from './params.js';

export const modelRules = defineCheck({
  id: 'default.modelRules',
  params: ModelRulesParams,
  phases: ['beforeRequest', 'input'],
  check(input, params) {
    const model = input.model ?? (typeof input.request.json['model'] === 'string' ? input.request.json['model'] : undefined);
    const matchedRules: string[] = [];
    let allowed: Set<string> | undefined;
    const byKey = params.rules.metadata;
    if (byKey) {
      for (const key in byKey) {
        const value = Object.hasOwn(input.metadata, key) ? input.metadata[key] : undefined;
        const byValue = byKey[key]!;
        // Own keys only: a metadata value such as "constructor" must not reach Object.prototype.
        if (value === undefined || !Object.hasOwn(byValue, value)) continue;
        const models = byValue[value]!;
        matchedRules.push(`${key}:${value}`);
        allowed ??= new Set();
        for (const m of models) allowed.add(m);
      }
    }
    const list = allowed ?? new Set(params.rules.defaults ?? []);
    const listed = model !== undefined && list.has(model);
    const not = params.not === true;
    const verdict = listed !== not;
    const data = { requestedModel: model ?? null, matchedRules, usingDefaults: allowed === undefined };
    if (verdict) return { verdict, data };
    return {
      verdict,
      data: { ...data, explanation: model === undefined ? 'the request names no model' : `model "${model}" is ${listed ? '' : 'not '}in the resolved list` },
    };
  },
  validate(params: ModelRulesParams): Issue[] {
    const hasDefaults = (params.rules.defaults?.length ?? 0) > 0;
    const hasMetadata = params.rules.metadata !== undefined && Object.keys(params.rules.metadata).length > 0;
    return hasDefaults || hasMetadata ? [] : [{ path: 'rules', rule: 'needs defaults or metadata rules' }];
  },
});
