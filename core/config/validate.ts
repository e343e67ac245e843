/**
 * Config validation: the spec schema and rules (schema.ts), then the rules plugins add per node
 * (validateConfig hook: strategy queries, guardrail params, provider credentials ...).
 * The first issue becomes a 400 naming its path and rule.
 */
import { Errors } from '../errors.js';
import { joinPath, type Issue } from '../schema.js';
import { checkConfig } from './schema.js';
import type { Hooks } from '../hooks.js';
import type { ConfigNode } from './types.js';

export function validateConfig(raw: unknown, hooks: Hooks): ConfigNode {
  const issues = checkConfig(raw);
  if (issues.length === 0) walk(raw as ConfigNode, '', hooks, issues);
  if (issues.length > 0) throw Errors.invalidConfig(issues[0]!.path, issues[0]!.rule);
  return raw as ConfigNode;
}

function walk(node: ConfigNode, path: string, hooks: Hooks, issues: Issue[]): void {
  hooks.validateConfig.call(node, path, issues);
  const targets = node.targets;
  if (!targets) return;
  for (let i = 0; i < targets.length && issues.length === 0; i++) {
    walk(targets[i]!, joinPath(joinPath(path, 'targets'), i), hooks, issues);
  }
}
