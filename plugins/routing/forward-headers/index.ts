/**
 * route.forward-headers: `forward_headers` (spec §2.1; direct mode `x-gw-forward-headers` as a
 * comma list) copies the named client headers into each target's upstream request. Names are
 * case-insensitive. The upstream plugin adds them beneath the adapter's own headers, so a
 * forwarded header never replaces what the adapter sets (credentials, content-type ...).
 * Gateway, proxy, credential and hop-by-hop headers are refused when the config is validated
 * (header-rules.ts); a header the client's own `Connection` lists is never forwarded.
 */
import { Stage, type ConfigNode, type Issue, type Plugin, type PluginApi } from '../../../core/index.js';
import { allowedNames, checkedNames, forwardRule, listedInConnection, remember } from './header-rules.js';
import { FORWARD_HEADERS_CONFIG } from './config-keys.js';

export default class ForwardHeadersPlugin implements Plugin {
  static readonly manifest = {
    id: 'route.forward-headers',
    description: 'forward_headers: named client headers passed to the provider',
    config: FORWARD_HEADERS_CONFIG,
  };

  apply(api: PluginApi): void {
    api.hooks.validateConfig.tap(api.id, checkNode);

    api.hooks.beforeRequest.tap({ name: api.id, stage: Stage.PARAMS }, (attempt) => {
      const list = attempt.target.forward_headers;
      if (list === undefined) return undefined;
      // Every list reaching a target was checked by validateConfig; filter one that somehow was not.
      const names = checkedNames(list) ?? allowedNames(list);
      const client = attempt.ctx.request.headers;
      const connection = client['connection'];
      const headers = attempt.headers;
      for (const name of names) {
        const value = client[name];
        if (value !== undefined && !listedInConnection(connection, name)) headers[name] = value;
      }
      return undefined;
    });
  }
}

function checkNode(node: ConfigNode, path: string, issues: Issue[]): void {
  const list = node.forward_headers;
  if (!list || checkedNames(list)) return;
  let ok = true;
  for (let i = 0; i < list.length; i++) {
    const rule = forwardRule(list[i]!);
    if (rule) {
      issues.push({ path: `${path ? path + '.' : ''}forward_headers.${i}`, rule });
      ok = false;
    }
  }
  if (ok) remember(list);
}
