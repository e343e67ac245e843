/**
 * Bench plugin `bench.stage-timings`: where an inference request's time goes inside the gateway,
 * stage by stage, by the gateway's own clock. The `stages` scenario loads it (no preset does): it
 * taps the first and the last stage of each lifecycle hook and wraps the provider call innermost,
 * keeps each request's marks, and answers `GET /bench/stages` with the median of each stage (µs)
 * over the requests since the last read. A request with several attempts keeps its last one's marks.
 *
 * Between the marks lies what no hook shows: the body read and parsed (after onRequest), body
 * validation (after resolveConfig), the strategy choosing the target (after preRoute), and the
 * write of the answer (after respond, until the host reports it written).
 */
import {
  Stage, WrapStage, type Attempt, type GatewayResponse, type Plugin, type PluginApi, type RequestContext,
} from '../../core/index.js';
import { percentile } from './stats.js';

/** The marks of one request, in the order a request passes them. */
const MARKS = [
  'dispatched', 'onRequestStart', 'onRequestEnd', 'resolveConfigStart', 'resolveConfigEnd', 'preRouteStart', 'preRouteEnd',
  'beforeRequestStart', 'beforeRequestEnd', 'callStart', 'callEnd', 'afterRequestEnd', 'respondStart', 'respondEnd', 'written',
] as const;

type Mark = (typeof MARKS)[number];

/** What each stage (from one mark to the next) holds. */
const STAGES: readonly string[] = [
  'host → onRequest',
  'onRequest (trace ids, identity, key check)',
  'body read and parsed, route handler',
  'resolveConfig',
  'prepareBody, body validation',
  'preRoute (limits, cache)',
  'strategy → target',
  'beforeRequest (params, headers, hooks)',
  'guardInput, attempt wrappers',
  'provider call (request out, answer in)',
  'guardOutput, afterRequest',
  'back to the route handler',
  'respond',
  'answer written',
];

/** Requests kept between two reads; older ones are dropped first. */
const MAX_REQUESTS = 100_000;

export interface StageTimes {
  requests: number;
  /** Median µs of each stage, in request order; null when no request reached it. */
  stages: { stage: string; p50Us: number | null }[];
}

export default class StageTimingsPlugin implements Plugin {
  static readonly manifest = {
    id: 'bench.stage-timings',
    description: 'Bench only: median time of each lifecycle stage, at GET /bench/stages',
  };

  apply(api: PluginApi): void {
    const open = new WeakMap<RequestContext, Partial<Record<Mark, number>>>();
    let done: Partial<Record<Mark, number>>[] = [];
    const mark = (ctx: RequestContext, name: Mark) => {
      let marks = open.get(ctx);
      if (!marks) open.set(ctx, (marks = { dispatched: ctx.startedAt }));
      marks[name] = performance.now();
    };
    const first = { name: api.id, stage: Stage.FIRST };
    const last = { name: api.id, stage: Stage.OBSERVE };
    const { hooks } = api;

    hooks.onRequest.tap(first, (ctx) => mark(ctx, 'onRequestStart'));
    hooks.onRequest.tap(last, (ctx) => mark(ctx, 'onRequestEnd'));
    hooks.resolveConfig.tap(first, (config, ctx) => (mark(ctx, 'resolveConfigStart'), config));
    hooks.resolveConfig.tap(last, (config, ctx) => (mark(ctx, 'resolveConfigEnd'), config));
    hooks.preRoute.tap(first, (ctx) => void mark(ctx, 'preRouteStart'));
    hooks.preRoute.tap(last, (ctx) => void mark(ctx, 'preRouteEnd'));
    hooks.beforeRequest.tap(first, (attempt: Attempt) => void mark(attempt.ctx, 'beforeRequestStart'));
    hooks.beforeRequest.tap(last, (attempt: Attempt) => void mark(attempt.ctx, 'beforeRequestEnd'));
    hooks.wrapAttempt.tap({ name: api.id, stage: WrapStage.CALL }, (run) => async (attempt) => {
      mark(attempt.ctx, 'callStart');
      try {
        return await run(attempt);
      } finally {
        mark(attempt.ctx, 'callEnd');
      }
    });
    hooks.afterRequest.tap(last, (outcome, attempt) => (mark(attempt.ctx, 'afterRequestEnd'), outcome));
    hooks.respond.tap(first, (response, ctx) => (mark(ctx, 'respondStart'), response));
    hooks.respond.tap(last, (response, ctx) => (mark(ctx, 'respondEnd'), response));
    hooks.onResponse.tap(first, (ctx, _response, completion) => {
      const marks = open.get(ctx);
      if (!marks || !ctx.endpoint) return;
      marks.written = ctx.startedAt + completion.durationMs;
      if (done.push(marks) > MAX_REQUESTS) done.shift();
    });

    api.registries.routes.add({
      method: 'GET', path: '/bench/stages', body: 'none', protected: false,
      handler: async (): Promise<GatewayResponse> => {
        const requests = done;
        done = [];
        return { status: 200, headers: { 'content-type': 'application/json' }, raw: JSON.stringify(stageTimesOf(requests, MARKS, STAGES)) };
      },
    });
  }
}

/**
 * The median of each stage over `requests`, stage i lying between marks i and i + 1 (milliseconds
 * on one clock); the floor gateway reports its own stages with it too.
 */
export function stageTimesOf<M extends string>(requests: readonly Partial<Record<M, number>>[], marks: readonly M[], stages: readonly string[]): StageTimes {
  return { requests: requests.length, stages: stages.map((stage, i) => ({ stage, p50Us: medianUs(requests, marks[i]!, marks[i + 1]!) })) };
}

/** Median (the p50 of the sequential figures) of `to - from` in µs over the requests that passed both marks; null when none did. */
function medianUs<M extends string>(requests: readonly Partial<Record<M, number>>[], from: M, to: M): number | null {
  const spans: number[] = [];
  for (const r of requests) {
    const a = r[from];
    const b = r[to];
    if (a !== undefined && b !== undefined) spans.push((b - a) * 1000);
  }
  if (spans.length === 0) return null;
  return Math.round(percentile(spans, 50) * 10) / 10;
}
