/**
 * `default.validUrls`: passes when every http(s) URL in the text is valid: its host resolves
 * (`onlyDNS`) or a GET answers with a status below 400 within `timeout`. At most MAX_URLS distinct
 * URLs are checked, in parallel; the rest are reported as unchecked. URLs into private networks
 * count as invalid unless the plugin option `allowPrivateNetwork` is set. No URL passes.
 */
import { lookup } from 'node:dns/promises';
import { defineCheck, type Transport } from '../../core/index.js';
import { pointsToPrivateNetwork } from '../common/private-network.js';
import { ValidUrlsParams } from './params.js';
import { urlsIn } from './urls.js';

export const MAX_URLS = 20;

export interface ValidUrlsOptions {
  allowPrivateNetwork: boolean;
}

export function createValidUrlsCheck(transport: Transport, options: ValidUrlsOptions) {
  async function problemOf(url: string, params: ValidUrlsParams, signal: AbortSignal): Promise<string | undefined> {
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      return 'not a valid URL';
    }
    try {
      if (params.onlyDNS) {
        await lookup(parsed.hostname.replace(/^\[|\]$/g, ''));
        return undefined;
      }
      if (!options.allowPrivateNetwork && (await pointsToPrivateNetwork(parsed.hostname))) return 'points into a private network';
    } catch (e) {
      return `host does not resolve (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`;
    }
    const timeout = params.timeout ?? 3000;
    const deadline = AbortSignal.any([signal, AbortSignal.timeout(ownDeadlineMs(timeout))]);
    try {
      const reply = await transport.send({ url: parsed.href, method: 'GET', headers: { accept: '*/*' } }, deadline);
      await reply.dump().catch(() => undefined);
      return reply.status < 400 ? undefined : `answered HTTP ${reply.status}`;
    } catch (e) {
      if (signal.aborted) throw e;
      return deadline.aborted ? `no answer within ${timeout} ms` : `unreachable (${(e as Error).message})`;
    }
  }

  return defineCheck({
    id: 'default.validUrls',
    params: ValidUrlsParams,
    async check(input, params) {
      const text = input.response ? input.response.text : input.request.text;
      const urls = urlsIn(text);
      const checked = urls.slice(0, MAX_URLS);
      const problems = await Promise.all(checked.map((url) => problemOf(url, params, input.signal)));
      const validUrls: string[] = [];
      const invalidUrls: { url: string; reason: string }[] = [];
      checked.forEach((url, i) => (problems[i] === undefined ? validUrls.push(url) : invalidUrls.push({ url, reason: problems[i]! })));
      const allValid = invalidUrls.length === 0;
      const not = params.not === true;
      const verdict = allValid !== not;
      const data = urls.length === 0 ? null : { validUrls, invalidUrls, unchecked: urls.length - checked.length };
      if (verdict) return { verdict, data };
      const explanation = urls.length === 0 ? 'no URL in the text' : allValid ? 'every URL is valid' : `${invalidUrls.length} invalid URL(s)`;
      return { verdict, data: { ...data, explanation } };
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
