/**
 * route.passthrough: `passthrough: true` (spec §2.1, §7) forwards the client's body bytes to the
 * provider untouched: the kernel skips body validation for a passthrough config, and this plugin
 * makes sure no plugin's body replaces the client's own for a passthrough target, so the adapter
 * sends the bytes as received (only the adapter's own headers, i.e. auth, are added).
 *
 * The provider is the config's own `provider` (or `virtual_key`) when it names one, otherwise the
 * request's: config.headers merges `x-gw-provider`, `Authorization` and `x-gw-custom-host` beneath
 * an `x-gw-config` object, and a target inherits its parents' provider. A passthrough target with
 * no provider from either is refused when the config is validated.
 *
 * Rules beyond the schema's (which refuses passthrough with targets, strategy, override_params,
 * hooks and guardrails on the same node): `default_params` and `drop_params` on a passthrough node
 * are refused too (the body is not rewritten); inherited from a parent, they are not applied.
 */
import { Stage, type ConfigNode, type Issue, type Plugin, type PluginApi } from '../../../core/index.js';
import { PASSTHROUGH_CONFIG } from './config-keys.js';

const REWRITES = ['default_params', 'drop_params'] as const;
const NO_PROVIDER = 'is required with passthrough: set provider (or virtual_key) in the config, or send x-gw-provider with Authorization';

export default class PassthroughPlugin implements Plugin {
  static readonly manifest = {
    id: 'route.passthrough',
    description: 'passthrough: the client body forwarded untouched to the request\'s provider',
    config: PASSTHROUGH_CONFIG,
  };

  apply(api: PluginApi): void {
    api.hooks.validateConfig.tap(api.id, (node, path, issues) => {
      const prefix = path ? path + '.' : '';
      if (node.passthrough === true) {
        for (const key of REWRITES) {
          if (node[key] !== undefined) issues.push({ path: prefix + key, rule: 'cannot be combined with passthrough: the body is forwarded untouched' });
        }
      }
      // The root sees the whole tree, so inherited providers are known.
      if (path === '') checkProviders(node, false, '', issues);
    });

    // Last of the per-target shaping: whatever ran before, a passthrough target sends the client's body.
    api.hooks.beforeRequest.tap({ name: api.id, stage: Stage.LATE }, (attempt) => {
      if (attempt.target.passthrough !== true) return undefined;
      const original = attempt.ctx.request.body;
      if (attempt.body !== original) attempt.body = original as Record<string, unknown>;
      return undefined;
    });
  }
}

function checkProviders(node: ConfigNode, inherited: boolean, prefix: string, issues: Issue[]): void {
  const hasProvider = inherited || node.provider !== undefined || node.virtual_key !== undefined;
  if (node.passthrough === true && !hasProvider) issues.push({ path: prefix + 'provider', rule: NO_PROVIDER });
  const targets = node.targets;
  if (!targets) return;
  for (let i = 0; i < targets.length; i++) checkProviders(targets[i]!, hasProvider, `${prefix}targets.${i}.`, issues);
}
