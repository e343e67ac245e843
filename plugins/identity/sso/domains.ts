/**
 * Email domains of SSO (spec §2.3 v1.15: `allow_subdomains` on root domains only).
 * A root domain is a registrable one: a name directly under a public suffix (`example.com`,
 * `example.co.uk`). Without a public-suffix library, the suffixes known here are every single-label
 * TLD and the common two-label ones below; a subdomain of a root domain (`eng.example.com`) is not root.
 */
const TWO_LABEL_SUFFIXES: ReadonlySet<string> = new Set([
  'co.uk', 'org.uk', 'ac.uk', 'gov.uk', 'me.uk', 'ltd.uk', 'plc.uk', 'net.uk', 'sch.uk',
  'com.au', 'net.au', 'org.au', 'edu.au', 'gov.au', 'co.nz', 'org.nz', 'net.nz',
  'co.jp', 'ne.jp', 'or.jp', 'ac.jp', 'co.kr', 'or.kr', 'co.in', 'net.in', 'org.in', 'co.za', 'org.za',
  'com.br', 'net.br', 'org.br', 'com.cn', 'net.cn', 'org.cn', 'com.mx', 'com.ar', 'com.tr', 'com.sg', 'com.hk',
  'com.tw', 'co.il', 'co.id', 'com.my', 'com.ph', 'co.th', 'com.vn', 'com.pl', 'com.es', 'co.at', 'or.at',
]);

const LABEL = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/;

/** The domain lower-cased without a trailing dot, or undefined when it is not a host name of two labels or more. */
export function normaliseDomain(value: string): string | undefined {
  const domain = value.trim().toLowerCase().replace(/\.$/, '');
  if (domain.length > 253) return undefined;
  const labels = domain.split('.');
  if (labels.length < 2 || !labels.every((l) => LABEL.test(l)) || /^[0-9]+$/.test(labels.at(-1)!)) return undefined;
  return domain;
}

/** Whether `domain` (normalised) is registrable: one label above its public suffix. */
export function isRootDomain(domain: string): boolean {
  const labels = domain.split('.');
  if (labels.length === 2) return !TWO_LABEL_SUFFIXES.has(domain);
  return labels.length === 3 && TWO_LABEL_SUFFIXES.has(labels.slice(1).join('.'));
}

/** The domain of an email address, normalised; undefined when it is not an address. */
export function emailDomain(email: string): string | undefined {
  const at = email.lastIndexOf('@');
  if (at <= 0 || at === email.length - 1 || /\s/.test(email)) return undefined;
  return normaliseDomain(email.slice(at + 1));
}

/** `a.eng.example.com` → [`eng.example.com`, `example.com`]: the domains that may cover it with `allow_subdomains`. */
export function parentDomains(domain: string): string[] {
  const labels = domain.split('.');
  const out: string[] = [];
  for (let i = 1; i < labels.length - 1; i++) out.push(labels.slice(i).join('.'));
  return out;
}
