/**
 * `default.modelWhitelist`: passes when the request's model (after overrides) is listed; with
 * `not`, when it is not (a block list). A request without a model is not in any list.
 */
import { defineCheck } from '../../core/index.js';
import { ModelWhitelistParams } from './params.js';

export const modelWhitelist = defineCheck({
  id: 'default.modelWhitelist',
  params: ModelWhitelistParams,
  phases: ['beforeRequest', 'input'],
  check(input, params) {
    const model = input.model ?? (typeof input.request.json['model'] === 'string' ? input.request.json['model'] : undefined);
    const listed = model !== undefined && params.models.includes(model);
    const not = params.not === true;
    const verdict = listed !== not;
    if (verdict) return { verdict, data: { requestedModel: model ?? null } };
    return {
      verdict,
      data: {
        requestedModel: model ?? null,
        explanation: model === undefined
          ? 'the request names no model'
          : `model "${model}" is ${listed ? '' : 'not '}in the list${verdict ? '' : not ? ' (a block list)' : ''}`,
      },
    };
  },
});
