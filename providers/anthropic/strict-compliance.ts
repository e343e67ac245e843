/**
 * Strict compliance keeps answers to the OpenAI shape: no thinking in or out (the default).
 * `strict_open_ai_compliance` is accepted as an alias of `strict_compat_compliance`, so configs
 * written for the nearest existing gateway carry over unchanged. A node that ends up with both
 * (set together, or one inherited and the other its own) must give them the same value: which one
 * was meant cannot be told otherwise.
 */
import { joinPath, type ConfigNode, type Issue } from '../../core/index.js';

export const STRICT_KEY = 'strict_compat_compliance';
export const STRICT_ALIAS = 'strict_open_ai_compliance';

/** The switch as a target sets it (either name), or undefined when it sets neither. */
export function strictSetting(target: ConfigNode): boolean | undefined {
  const own = target[STRICT_KEY];
  if (typeof own === 'boolean') return own;
  const alias = target[STRICT_ALIAS];
  return typeof alias === 'boolean' ? alias : undefined;
}

export function isStrict(target: ConfigNode): boolean {
  return strictSetting(target) !== false;
}

/** The validateConfig rule over a node as the kernel routes it (inherited settings included). */
export function checkStrictAlias(path: string, issues: Issue[], effective: ConfigNode): void {
  const own = effective[STRICT_KEY];
  const alias = effective[STRICT_ALIAS];
  if (typeof own === 'boolean' && typeof alias === 'boolean' && own !== alias) {
    issues.push({
      path: joinPath(path, STRICT_ALIAS),
      rule: `is an alias of ${STRICT_KEY}, which is ${own} here: set one of them, or both to the same value`,
    });
  }
}
