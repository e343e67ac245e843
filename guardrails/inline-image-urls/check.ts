/**
 * `default.inlineImageUrls` (request side): checks the http(s) image URLs of a chat request before
 * they reach a provider that would fetch them: each must answer with an image/* content-type and at
 * most `maxSizeBytes`, within `timeoutMs`. At most MAX_IMAGES URLs are checked, in parallel.
 * Problems are reported in `data.problems`; they fail the check only with `failOnError`.
 * Skipped (passes) for providers not listed in `providers`.
 */
import { defineCheck, type Transport } from '../../core/index.js';
import { imageUrlsOf } from './image-urls.js';
import { inspectImage } from './inspect.js';
import { InlineImageUrlsParams } from './params.js';

export const MAX_IMAGES = 20;

export interface InlineImageUrlsOptions {
  allowPrivateNetwork: boolean;
}

export function createInlineImageUrlsCheck(transport: Transport, options: InlineImageUrlsOptions) {
  return defineCheck({
    id: 'default.inlineImageUrls',
    params: InlineImageUrlsParams,
    phases: ['beforeRequest', 'input'],
    async check(input, params) {
      if (params.providers && params.providers.length > 0 && !(input.provider !== undefined && params.providers.includes(input.provider))) {
        return { verdict: true, data: { skipped: true } };
      }
      const urls = imageUrlsOf(input.request.json);
      if (urls.length === 0) return { verdict: true, data: { checked: 0 } };
      const checked = urls.slice(0, MAX_IMAGES);
      const inspect = {
        maxSizeBytes: params.maxSizeBytes ?? 20 * 1024 * 1024,
        timeoutMs: Math.min(params.timeoutMs ?? 30000, ownDeadlineMs(params.timeout ?? 31000)),
        allowPrivateNetwork: options.allowPrivateNetwork,
      };
      const infos = await Promise.all(checked.map((url) => inspectImage(transport, url, inspect, input.signal)));
      const problems = infos.flatMap((info, i) => (info.problem ? [{ url: checked[i]!, problem: info.problem }] : []));
      const failOnError = params.failOnError === true;
      const verdict = problems.length === 0 || !failOnError;
      const data = {
        checked: checked.length,
        unchecked: urls.length - checked.length,
        problems,
        images: infos.map((info, i) => ({ url: checked[i]!, contentType: info.contentType ?? null, sizeBytes: info.sizeBytes ?? null })),
      };
      return verdict ? { verdict, data } : { verdict, data: { ...data, explanation: `${problems.length} image URL(s) with problems` } };
    },
  });
}

/**
 * The check's own deadline, a little before `timeout`: the runner stops waiting at `timeout` (it
 * reads the same param), and the check must be the one that decides what a slow service means.
 */
function ownDeadlineMs(timeout: number): number {
  return Math.max(1, timeout - Math.min(100, Math.ceil(timeout / 10)));
}
