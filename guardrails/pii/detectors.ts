/**
 * PII detectors: one global expression per category, compiled at load. Order matters: card numbers
 * and national ids are replaced before phone numbers, so a card is never half-taken for a phone.
 * Matches are confirmed where a checksum or a rule exists (Luhn for cards, SSN area rules).
 */
export const PII_CATEGORIES = ['email', 'credit_card', 'ssn', 'uk_nino', 'phone'] as const;
export type PiiCategory = (typeof PII_CATEGORIES)[number];

export interface Detector {
  readonly category: PiiCategory;
  readonly placeholder: string;
  readonly pattern: RegExp;
  /** Confirms a candidate (checksums); absent means every match counts. */
  readonly confirm?: (match: string) => boolean;
}

export const DETECTORS: readonly Detector[] = [
  {
    category: 'email',
    placeholder: '[EMAIL]',
    // Unicode letters allowed in both parts (internationalised addresses).
    pattern: /[\p{L}\p{N}._%+-]+@[\p{L}\p{N}](?:[\p{L}\p{N}-]*[\p{L}\p{N}])?(?:\.[\p{L}\p{N}](?:[\p{L}\p{N}-]*[\p{L}\p{N}])?)*\.\p{L}{2,}/gu,
  },
  {
    category: 'credit_card',
    placeholder: '[CREDIT_CARD]',
    // 13 to 19 digits, optionally grouped by single spaces or dashes.
    pattern: /(?<![\d-])\d(?:[ -]?\d){12,18}(?![\d-])/g,
    confirm: luhnValid,
  },
  {
    category: 'ssn',
    placeholder: '[SSN]',
    // US SSN in its written form AAA-GG-SSSS; area 000, 666 and 9xx, group 00 and serial 0000 are never issued.
    pattern: /(?<![\d-])(?!000|666|9\d\d)\d{3}-(?!00)\d{2}-(?!0000)\d{4}(?![\d-])/g,
  },
  {
    category: 'uk_nino',
    placeholder: '[UK_NINO]',
    // UK National Insurance number: two letters (D, F, I, Q, U, V never; O not second), six digits, A-D.
    pattern: /\b(?!BG|GB|KN|NK|NT|TN|ZZ)[A-CEGHJ-PR-TY-Z][A-CEGHJ-NPR-TW-Z] ?\d{2} ?\d{2} ?\d{2} ?[A-D]\b/gi,
  },
  {
    category: 'phone',
    placeholder: '[PHONE]',
    // International (+country) or national numbers of 7 to 15 digits with the usual separators.
    pattern: /(?<![\w+])(?:\+\d{1,3}[ .-]?)?(?:\(\d{1,4}\)[ .-]?)?\d{2,4}(?:[ .-]?\d{2,4}){1,3}(?![\w])/g,
    confirm: phoneLike,
  },
];

/** The Luhn checksum of the digits of `s` (separators ignored), for 13 to 19 digits. */
export function luhnValid(s: string): boolean {
  let sum = 0;
  let digits = 0;
  let double = false;
  for (let i = s.length - 1; i >= 0; i--) {
    const c = s.charCodeAt(i) - 48;
    if (c < 0 || c > 9) continue;
    digits++;
    let d = c;
    if (double) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
    double = !double;
  }
  return digits >= 13 && digits <= 19 && sum % 10 === 0;
}

/**
 * A phone candidate needs 7 to 15 digits and some sign of being a phone number: a leading +, a
 * parenthesised area code, or separators between digit groups. A bare run of digits (an order
 * number, an amount) is not taken for a phone.
 */
function phoneLike(s: string): boolean {
  let digits = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 48 && c <= 57) digits++;
  }
  if (digits < 7 || digits > 15 || NOT_A_PHONE.test(s)) return false;
  return s.startsWith('+') || s.includes('(') || GROUPED.test(s);
}

/** Dates (2024-01-15, 15.01.2024) and the SSN shape (checked, and refused, by its own detector). */
const NOT_A_PHONE = /^(?:\d{4}[-.]\d{1,2}[-.]\d{1,2}|\d{1,2}[-.]\d{1,2}[-.]\d{4}|\d{3}-\d{2}-\d{4})$/;
const GROUPED = /\d[ .-]\d/;
