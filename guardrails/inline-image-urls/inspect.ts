/**
 * Fetches one image URL (GET through the shared transport, bounded by a deadline) and says what is
 * wrong with it, if anything: an error status, a content-type that is not image/*, a size over the
 * limit (from content-length, or counted while reading when there is none; reading stops at the
 * limit), no answer in time, or an address in a private network.
 */
import type { Transport } from '../../core/index.js';
import { pointsToPrivateNetwork } from '../common/private-network.js';

export interface InspectOptions {
  maxSizeBytes: number;
  timeoutMs: number;
  allowPrivateNetwork: boolean;
}

export interface ImageInfo {
  contentType?: string;
  sizeBytes?: number;
  problem?: string;
}

export async function inspectImage(transport: Transport, url: string, options: InspectOptions, signal: AbortSignal): Promise<ImageInfo> {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return { problem: 'not a valid URL' };
  }
  try {
    if (!options.allowPrivateNetwork && (await pointsToPrivateNetwork(parsed.hostname))) return { problem: 'points into a private network' };
  } catch (e) {
    return { problem: `host does not resolve (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})` };
  }
  const deadline = AbortSignal.any([signal, AbortSignal.timeout(options.timeoutMs)]);
  try {
    const reply = await transport.send({ url: parsed.href, method: 'GET', headers: { accept: 'image/*' } }, deadline);
    const contentType = reply.headers['content-type']?.split(';')[0]?.trim().toLowerCase();
    if (reply.status >= 400) return release(reply, { contentType, problem: `answered HTTP ${reply.status}` });
    if (!contentType?.startsWith('image/')) return release(reply, { contentType, problem: `content-type ${contentType ?? '(none)'} is not an image` });
    const declared = reply.headers['content-length'];
    if (declared !== undefined && /^\d+$/.test(declared)) {
      const sizeBytes = Number(declared);
      const problem = sizeBytes > options.maxSizeBytes ? `size ${sizeBytes} bytes exceeds ${options.maxSizeBytes}` : undefined;
      return release(reply, { contentType, sizeBytes, problem });
    }
    let sizeBytes = 0;
    for await (const chunk of reply.body) {
      sizeBytes += chunk.byteLength;
      // Leaving the loop destroys the body: nothing past the limit is downloaded.
      if (sizeBytes > options.maxSizeBytes) return { contentType, sizeBytes, problem: `size exceeds ${options.maxSizeBytes} bytes` };
    }
    return { contentType, sizeBytes };
  } catch (e) {
    if (signal.aborted) throw e;
    return { problem: deadline.aborted ? `no answer within ${options.timeoutMs} ms` : `unreachable (${(e as Error).message})` };
  }
}

async function release(reply: { dump(): Promise<void> }, info: ImageInfo): Promise<ImageInfo> {
  await reply.dump().catch(() => undefined);
  return info;
}
