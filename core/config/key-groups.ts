/**
 * What a root config lacking every key group (§2.1) is told, worded from the groups this gateway
 * has: the credentials a provider may come with, and the keys that make a config on their own.
 */
export interface GroupMessages {
  /** No group started at all. */
  readonly none: string;
  /** Only a provider, named as given (JSON). */
  provider(name: string): string;
}

export function describeGroups(groups: readonly (readonly string[])[]): GroupMessages {
  const credentials: string[] = [];
  let multiKey = false;
  const alone: string[] = [];
  for (const group of groups) {
    if (group.includes('provider')) {
      if (group.length === 2) credentials.push(group.find((k) => k !== 'provider')!);
      else if (group.length > 2) multiKey = true;
    } else if (group.length === 1 && group[0] !== 'virtual_key') {
      alone.push(group[0]!);
    }
  }
  if (multiKey) credentials.push('cloud credentials');
  const needs = orList(credentials);
  const oneOf = alone.length > 0 ? `, or one of ${orList(alone)}` : '';
  return {
    none: `needs provider with ${needs}, a provider "@slug", virtual_key, strategy with targets${oneOf}`,
    provider: (name) => `provider ${name} needs ${needs} (or use a provider "@slug" or virtual_key)`,
  };
}

/** `a, b or c`. */
function orList(items: readonly string[]): string {
  if (items.length <= 1) return items.join('');
  return `${items.slice(0, -1).join(', ')} or ${items[items.length - 1]}`;
}
