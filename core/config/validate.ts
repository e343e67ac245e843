/**
 * Config validation: the assembled schema and rules (keys.ts), then the rules plugins add per node
 * (validateConfig hook: strategy queries, guardrail params, provider credentials ...).
 * The first issue becomes a 400 naming its path and rule.
 */
import { Errors } from '../errors.js';
import { joinPath, type Issue } from '../schema.js';
import type { ConfigKeys } from './keys.js';
import type { Hooks } from '../hooks.js';
import { childSettings, inherit } from './inherit.js';
import type { ConfigNode } from './types.js';

export function validateConfig(raw: unknown, hooks: Hooks, keys: ConfigKeys): ConfigNode {
  const issues = keys.check(raw);
  if (issues.length === 0) walk(raw as ConfigNode, undefined, '', hooks, keys, issues);
  if (issues.length > 0) throw Errors.invalidConfig(issues[0]!.path, issues[0]!.rule);
  return raw as ConfigNode;
}

/** Each node is checked as written and as the kernel will route it (with inherited settings). */
function walk(node: ConfigNode, parent: ConfigNode | undefined, path: string, hooks: Hooks, keys: ConfigKeys, issues: Issue[]): void {
  const effective = inherit(parent, node, keys);
  hooks.validateConfig.call(node, path, issues, effective);
  const targets = node.targets;
  if (!targets) return;
  const passedDown = childSettings(effective, keys);
  for (let i = 0; i < targets.length && issues.length === 0; i++) {
    walk(targets[i]!, passedDown, joinPath(joinPath(path, 'targets'), i), hooks, keys, issues);
  }
}
