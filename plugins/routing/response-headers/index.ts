/**
 * route.response-headers: tells the client which provider and which target served the answer
 * (`x-gw-provider`, `x-gw-last-used-option-index`) and how many retries it took
 * (`x-gw-retry-attempt-count`), on success and on error alike.
 */
import { Stage, type Plugin, type PluginApi } from '../../../core/index.js';

export default class ResponseHeadersPlugin implements Plugin {
  static readonly manifest = { id: 'route.response-headers', description: 'x-gw-provider, x-gw-last-used-option-index, x-gw-retry-attempt-count' };

  apply(api: PluginApi): void {
    api.hooks.respond.tap({ name: api.id, stage: Stage.LATE }, (response, ctx) => {
      const outcome = ctx.outcome;
      if (!outcome) return response;
      const headers = response.headers;
      if (outcome.provider) headers['x-gw-provider'] = outcome.provider;
      if (outcome.target) headers['x-gw-last-used-option-index'] = outcome.target.$path;
      headers['x-gw-retry-attempt-count'] = String(outcome.retries);
      return response;
    });
  }
}
