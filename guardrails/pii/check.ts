/**
 * `default.pii`: finds emails, card numbers (Luhn-checked), US SSNs, UK National Insurance numbers
 * and phone numbers. Without `redact`, anything found fails the check. With `redact`, each finding
 * is replaced by a placeholder (`[EMAIL]`, `[CREDIT_CARD]` ...), the text is returned for the runner
 * to write back, and the check passes. `data` reports counts per category, never the values found.
 */
import { defineCheck } from '../../core/index.js';
import { DETECTORS, type PiiCategory } from './detectors.js';
import { PiiParams } from './params.js';

const ALL = new Set<PiiCategory>(DETECTORS.map((d) => d.category));
const selected = new WeakMap<PiiParams, ReadonlySet<PiiCategory>>();

function categoriesOf(params: PiiParams): ReadonlySet<PiiCategory> {
  if (!params.categories) return ALL;
  let set = selected.get(params);
  if (!set) {
    set = new Set(params.categories);
    selected.set(params, set);
  }
  return set;
}

export const pii = defineCheck({
  id: 'default.pii',
  params: PiiParams,
  check(input, params) {
    const original = input.response ? input.response.text : input.request.text;
    const categories = categoriesOf(params);
    let text = original;
    let detected: Partial<Record<PiiCategory, number>> | undefined;
    for (const detector of DETECTORS) {
      if (!categories.has(detector.category)) continue;
      let found = 0;
      // Each detector works on the text with earlier findings already replaced by placeholders.
      text = text.replace(detector.pattern, (match) => {
        if (detector.confirm && !detector.confirm(match)) return match;
        found++;
        return detector.placeholder;
      });
      if (found > 0) (detected ??= {})[detector.category] = found;
    }
    if (!detected) return { verdict: true, data: null };
    if (params.redact !== true) {
      return { verdict: false, data: { detected, explanation: `personal data found: ${Object.keys(detected).join(', ')}` } };
    }
    return { verdict: true, data: { detected, redacted: true }, transformedText: text };
  },
});
