/**
 * A list of host rules, as operators write them: comma-separated entries, each a host name
 * (`api.example.com`), a wildcard over a domain's sub-domains (`*.internal`), or a CIDR range
 * (`10.0.0.0/8`, `::1/128`; a bare address is a one-address range). Names match host names
 * (case-insensitive, a trailing dot ignored); ranges match IP addresses. Parsed once, at boot.
 */
import { CidrRange, familyOf, unbracket, type AddressFamily } from './addresses.js';

const LABEL = '[a-z0-9_]([a-z0-9_-]{0,61}[a-z0-9_])?';
const HOST_NAME = new RegExp(`^(\\*\\.)?${LABEL}(\\.${LABEL})*$`);

export class HostRules {
  readonly #names = new Set<string>();
  /** `*.example.com` kept as `.example.com`, with the entry as written. */
  readonly #suffixes: { suffix: string; text: string }[] = [];
  readonly #ranges: CidrRange[] = [];

  /** `source` names where the entries come from (an environment variable, a plugin option), for messages. */
  private constructor(readonly source: string, readonly entries: readonly string[]) {}

  /**
   * The rules of a comma-separated text or a list of entries. Blank entries are skipped; any other
   * entry that is not a rule throws an Error naming `source` and the entry.
   */
  static parse(input: string | readonly string[], source: string): HostRules {
    const raw = typeof input === 'string' ? input.split(',') : input;
    const entries = raw.map((e) => e.trim()).filter((e) => e !== '');
    const rules = new HostRules(source, Object.freeze(entries));
    for (const entry of entries) {
      const problem = rules.#add(entry);
      if (problem) throw new Error(`${source}: entry "${entry}" is not a host rule: ${problem}`);
    }
    return rules;
  }

  get empty(): boolean {
    return this.entries.length === 0;
  }

  /** The entry that matches host name `host`, if any. */
  matchName(host: string): string | undefined {
    const name = normalName(host);
    if (this.#names.has(name)) return name;
    for (const { suffix, text } of this.#suffixes) if (name.endsWith(suffix)) return text;
    return undefined;
  }

  /** The entry whose range holds IP address `address`, if any. */
  matchAddress(address: string, family: AddressFamily): string | undefined {
    for (const range of this.#ranges) if (range.contains(address, family)) return range.text;
    return undefined;
  }

  /** The entry matching `host`, judged as an address when it is an IP literal, else as a name. */
  matchHost(host: string): string | undefined {
    const bare = unbracket(host);
    const family = familyOf(bare);
    return family ? this.matchAddress(bare, family) : this.matchName(bare);
  }

  #add(entry: string): string | undefined {
    if (entry.includes('://')) return 'write a host name or a CIDR range, without scheme or port';
    if (entry.includes('/') || familyOf(unbracket(entry))) {
      const range = CidrRange.parse(entry);
      if (typeof range === 'string') return range;
      this.#ranges.push(range);
      return undefined;
    }
    if (entry === '*') return 'a lone "*" is not a rule (0.0.0.0/0 and ::/0 cover every address)';
    if (entry.includes(':')) return 'write a host name or a CIDR range, without scheme or port';
    const name = normalName(entry);
    if (!HOST_NAME.test(name)) return 'not a host name; the only wildcard is a leading "*." (as in *.example.com)';
    if (name.startsWith('*.')) this.#suffixes.push({ suffix: name.slice(1), text: entry });
    else this.#names.add(name);
    return undefined;
  }
}

function normalName(host: string): string {
  const lower = host.toLowerCase();
  return lower.endsWith('.') ? lower.slice(0, -1) : lower;
}
