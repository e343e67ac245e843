/**
 * observe.access-log: one pino line per request after its answer is written: trace id, route,
 * provider, status, latency. No headers or bodies, so no secret can reach the log.
 */
import { accessLine, Type, type Plugin, type PluginApi, type Static } from '../../../core/index.js';

const Options = Type.Object({
  /** pino level of the per-request line. */
  level: Type.Union([Type.Literal('info'), Type.Literal('debug'), Type.Literal('trace')], { default: 'info' }),
}, { additionalProperties: false });

export default class RequestLogPlugin implements Plugin<Static<typeof Options>> {
  static readonly manifest = { id: 'observe.access-log', description: 'One log line per request', options: Options };

  apply(api: PluginApi<Static<typeof Options>>): void {
    // The line is built from known fields only (no headers, no bodies), so it skips redaction.
    const line = accessLine(api.logger, api.options.level, 'request');
    if (!line) return;
    api.hooks.onResponse.tap(api.id, (ctx, _response, completion) => {
      const outcome = ctx.outcome;
      line({
        traceId: ctx.traceId || undefined,
        method: ctx.request.method,
        route: ctx.route.path,
        provider: outcome?.provider,
        target: outcome?.target?.$path,
        status: completion.status,
        retries: outcome?.retries || undefined,
        reason: ctx.reason,
        latencyMs: Math.round(completion.durationMs * 100) / 100,
        error: completion.error ? String((completion.error as Error).message ?? completion.error) : undefined,
      });
    });
  }
}
