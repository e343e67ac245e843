/**
 * `default.jsonKeys`: looks at the top-level keys of the JSON object(s) found in the text (see
 * core's extractJson). `any`: at least one key present; `all`: every key; `none`: no key. With several
 * candidates the first that passes wins, else the one with most keys is reported. No JSON object
 * found fails whatever the operator (there is nothing to judge).
 */
import { defineCheck, extractJson } from '../../core/index.js';
import { JsonKeysParams } from './params.js';

export const jsonKeys = defineCheck({
  id: 'default.jsonKeys',
  params: JsonKeysParams,
  check(input, params) {
    const text = input.response ? input.response.text : input.request.text;
    const operator = params.operator ?? 'any';
    const objects = extractJson(text).filter((v): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v));
    let best: { present: string[]; verdict: boolean } | undefined;
    for (const obj of objects) {
      const present = params.keys.filter((k) => Object.hasOwn(obj, k));
      const verdict = operator === 'any' ? present.length > 0 : operator === 'all' ? present.length === params.keys.length : present.length === 0;
      if (!best || verdict || present.length > best.present.length) best = { present, verdict };
      if (verdict) break;
    }
    if (!best) return { verdict: false, data: { jsonFound: false, explanation: 'no JSON object found in the text' } };
    const present = best.present;
    const data = { presentKeys: present, missingKeys: params.keys.filter((k) => !present.includes(k)) };
    if (best.verdict) return { verdict: true, data };
    return {
      verdict: false,
      data: { ...data, explanation: `${present.length} of ${params.keys.length} key(s) present; operator "${operator}" failed` },
    };
  },
});
