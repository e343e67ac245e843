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
      const ok = !offending.test(text);
      const not = params.not === true;
      return {
        verdict: ok !== not,
        data: { not, explanation: `the text is ${ok ? '' : 'not '}all ${wanted}` },
      };
    },
  });
}

export const allUppercase = caseCheck('default.alluppercase', LOWER_LETTER, 'uppercase');
export const allLowercase = caseCheck('default.alllowercase', UPPER_LETTER, 'lowercase');
