/**
 * `default.containsCode`: passes when the text holds a fenced Markdown code block (```tag) whose tag
 * names `format` (aliases such as py, ts, bash are understood). Untagged blocks and unfenced code are
 * not classified: guessing a language from bare text is unreliable. Inverted by `not`.
 */
import { defineCheck } from '../../core/index.js';
import { FORMAT_BY_TAG } from './languages.js';
import { ContainsCodeParams } from './params.js';

/** Every fence line (opening or closing). */
const FENCE_LINE = /^[ \t]*(?:```|~~~).*$/gm;
/** The tag of an opening fence: ```python, ~~~ ts ... */
const FENCE_TAG = /^[ \t]*(?:```|~~~)[ \t]*([^\s`{]+)/;

export const containsCode = defineCheck({
  id: 'default.containsCode',
  params: ContainsCodeParams,
  check(input, params) {
    const text = input.response ? input.response.text : input.request.text;
    const found = new Set<string>();
    let inside = false;
    // Fences alternate open / close; only opening fences carry the tag.
    for (const line of text.matchAll(FENCE_LINE)) {
      if (!inside) {
        const tag = FENCE_TAG.exec(line[0])?.[1]?.toLowerCase();
        if (tag) found.add(FORMAT_BY_TAG.get(tag) ?? tag);
      }
      inside = !inside;
    }
    const hasFormat = found.has(params.format);
    const not = params.not === true;
    const verdict = hasFormat !== not;
    const foundFormats = [...found];
    if (verdict) return { verdict, data: { foundFormats } };
    return {
      verdict,
      data: { foundFormats, explanation: hasFormat ? `found a ${params.format} code block` : `no ${params.format} code block found` },
    };
  },
});
