/** Test-only probes: when the mock received each request, and when the gateway finished each request. */
import type { MockOpenAI } from '../../../fixtures/mock-openai.js';
import type { Plugin, PluginApi } from '../../../../core/index.js';

/** Arrival times (performance.now()) of the mock's requests, recorded as the mock records them. */
export function arrivalTimes(mock: MockOpenAI): number[] {
  const times: number[] = [];
  const requests = mock.requests;
  const push = requests.push.bind(requests);
  requests.push = (...items) => {
    for (let i = 0; i < items.length; i++) times.push(performance.now());
    return push(...items);
  };
  return times;
}

export function gaps(times: number[]): number[] {
  return times.slice(1).map((t, i) => t - times[i]!);
}

export interface Finished {
  status: number;
  at: number;
}

/** Records every request the gateway finished (onResponse), with its status and time. */
export class CompletionProbe implements Plugin {
  static readonly manifest = { id: 'test.completion-probe', description: 'test observer of finished requests' };
  static readonly finished: Finished[] = [];

  apply(api: PluginApi): void {
    api.hooks.onResponse.tap(api.id, (_ctx, response) => {
      CompletionProbe.finished.push({ status: response.status, at: performance.now() });
    });
  }
}

/** Resolves when `check` holds, polling every few ms; rejects after `timeoutMs`. */
export async function until(check: () => boolean, timeoutMs = 2000): Promise<void> {
  const end = performance.now() + timeoutMs;
  while (!check()) {
    if (performance.now() > end) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 5));
  }
}
