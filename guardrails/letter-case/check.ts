/**
 * `default.alluppercase` / `default.alllowercase`: passes when no letter of the text has the other
 * case (Unicode-aware; digits, punctuation and uncased scripts are ignored, so a text without
 * letters passes). One regex scan, no copy of the text.
 */
import { defineCheck } from '../../core/index.js';
import { LetterCaseParams } from './params.js';

const LOWER_LETTER = /\p{Ll}/u;
const UPPER_LETTER = /[\p{Lu}\p{Lt}]/u;

function caseCheck(id: string, offending: RegExp, wanted: 'uppercase' | 'lowercase') {
  return defineCheck({
    id,
    params: LetterCaseParams,
    check(input, params) {
      const text = input.response ? input.response.text : input.request.text;
      const found = offending.exec(text);
      const ok = found === null;
      const not = params.not === true;
      const verdict = ok !== not;
      // Findings: the first letter of the other case, if any.
      if (verdict) return { verdict, data: ok ? null : { offendingLetter: found[0] } };
      const explanation = `the text is ${ok ? '' : 'not '}all ${wanted}`;
      return { verdict, data: ok ? { explanation } : { offendingLetter: found[0], explanation } };
    },
  });
}

export const allUppercase = caseCheck('default.alluppercase', LOWER_LETTER, 'uppercase');
export const allLowercase = caseCheck('default.alllowercase', UPPER_LETTER, 'lowercase');
