/**
 * Hostile and careless values for the fuzz test: odd strings and numbers, random JSON, deep
 * nesting, and mutations of valid bodies. No generated string contains "://": every URL the
 * fuzz sends is chosen from loopback addresses (see safety.ts).
 */
import type { Random } from './random.js';

export const ODD_STRINGS: readonly string[] = [
  '', ' ', 'a', 'null', 'NaN', 'undefined', '-1', '1e999', '0x10', 'true',
  '\u0000', 'a\u0000b', '\ud800', '\udfff\ud800', '💥', 'ﬁ', 'e\u0301', '\u202e', '\r\n', '\t',
  '__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty',
  '../../etc/passwd', '%00', '%2e%2e%2f', '<script>alert(1)</script>', "'; DROP TABLE keys; --", '" OR 1=1 --',
  '{{x}}', '{{#a}}{{/a}}', '{{> partial}}', '{{{raw}}}', '{{=<% %>=}}', '${env.HOME}', '$regex', '$gt',
  '(a+)+$', '^(a|a)*$', '(?=a)', '(a)\\1', '[', '\\', '*', '.*', '(?<n>a)\\k<n>',
  '@', '@nope', '@acct', 'openai', 'anthropic', 'gpt-4o-mini', 'default', 'single', 'fallback', 'loadbalance', 'conditional',
  'organisation-service', 'workspace-service', 'workspace-user', 'admin', 'owner', 'member', 'requests', 'tokens', 'rpm',
  'ws-anything', 'u-1', 'active', 'archived', '24h', 'immediate', '/v1/chat/completions', 'text-moderation-latest',
  'x'.repeat(300), 'y'.repeat(70_000),
];

export const ODD_NUMBERS: readonly number[] = [
  0, -0, 1, -1, 2, 0.5, 3.14, 16, 30, 128, 129, 1000, 30_000, 86_400, 1_800_000, 999_999_999_999,
  2 ** 31, 2 ** 32, 2 ** 53 - 1, 2 ** 53, 2 ** 53 + 2, -(2 ** 53), 8.64e15, 8.64e15 + 1, 1e21, 1e308, -1e308, 5e-324, Number.MAX_VALUE,
];

const ALPHABET = 'abcxyzABC019 _-.:/@$#%&*+=?!,;~^|"\'\\{}[]()<>\u00e9\u4e2d\u{1f600}\u0000\u0007\n';

export function randomString(rng: Random): string {
  if (rng.chance(0.6)) return rng.pick(ODD_STRINGS);
  const chars = [...ALPHABET];
  let s = '';
  const n = rng.int(0, 40);
  for (let i = 0; i < n; i++) s += rng.pick(chars);
  return s.replaceAll('://', ':/');
}

export function randomNumber(rng: Random): number {
  return rng.chance(0.7) ? rng.pick(ODD_NUMBERS) : (rng.next() - 0.5) * 10 ** rng.int(0, 20);
}

/** A random JSON value; `depth` bounds its nesting. */
export function randomValue(rng: Random, depth = 3): unknown {
  const kind = rng.int(0, depth > 0 ? 7 : 4);
  switch (kind) {
    case 0: return null;
    case 1: return rng.chance(0.5);
    case 2: return randomNumber(rng);
    case 3:
    case 4: return randomString(rng);
    case 5: {
      const out: unknown[] = [];
      const n = rng.chance(0.05) ? rng.int(100, 300) : rng.int(0, 4);
      for (let i = 0; i < n; i++) out.push(randomValue(rng, depth - 1));
      return out;
    }
    default: {
      const out: Record<string, unknown> = {};
      const n = rng.int(0, 4);
      for (let i = 0; i < n; i++) out[randomString(rng)] = randomValue(rng, depth - 1);
      return out;
    }
  }
}

/** A placeholder that `toJson` replaces by deeply nested JSON text (never built as objects here). */
export const DEEP = '\u0001deep\u0001';

export function deepJson(rng: Random): string {
  const n = rng.pick([129, 200, 5_000, 20_000]);
  return rng.chance(0.5) ? '['.repeat(n) + ']'.repeat(n) : '{"a":'.repeat(n) + '1' + '}'.repeat(n);
}

/** JSON text of a value, with each DEEP placeholder replaced by deeply nested JSON. */
export function toJson(rng: Random, value: unknown): string {
  const text = JSON.stringify(value) ?? 'null';
  const placeholder = JSON.stringify(DEEP);
  return text.includes(placeholder) ? text.replaceAll(placeholder, () => deepJson(rng)) : text;
}

type Container = Record<string, unknown> | unknown[];

/** Containers of a value, breadth first, with the value itself first. */
function containersOf(value: unknown): Container[] {
  const out: Container[] = [];
  const queue: unknown[] = [value];
  while (queue.length > 0 && out.length < 200) {
    const v = queue.shift();
    if (v === null || typeof v !== 'object') continue;
    out.push(v as Container);
    for (const child of Object.values(v)) queue.push(child);
  }
  return out;
}

/** Changes one place of a (copied) JSON value: a field replaced, removed or added, a type swapped. */
export function mutate(rng: Random, value: unknown): unknown {
  const copy: unknown = structuredClone(value);
  const containers = containersOf(copy);
  if (containers.length === 0) return rng.chance(0.5) ? randomValue(rng) : DEEP;
  const target = rng.pick(containers);
  const keys = Object.keys(target);
  const replacement = rng.chance(0.08) ? DEEP : randomValue(rng, rng.int(0, 2));
  const action = keys.length === 0 ? 2 : rng.int(0, 3);
  if (Array.isArray(target)) {
    const i = rng.int(0, Math.max(0, target.length - 1));
    if (action === 1) target.splice(i, 1);
    else if (action === 2) target.push(replacement);
    else target[i] = replacement;
  } else {
    const key = keys.length > 0 ? rng.pick(keys) : randomString(rng);
    if (action === 1) delete target[key];
    else if (action === 2) target[randomString(rng)] = replacement;
    else target[key] = replacement;
  }
  return copy;
}
