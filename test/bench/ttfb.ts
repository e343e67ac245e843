/**
 * Streaming latency without autocannon: sequential streamed requests, timing the first body byte
 * and the end of the stream. A gateway that buffered streams would show a first byte close to
 * the end of the stream instead of close to the upstream's first chunk.
 */
import { Agent, request } from 'node:http';
import { median, percentile } from './stats.js';
import type { Target } from './targets.js';

export interface StreamSample {
  ttfbMs: number;
  totalMs: number;
}

export interface StreamStats {
  target: string;
  samples: number;
  ttfbMedian: number;
  ttfbP99: number;
  totalMedian: number;
  totalP99: number;
}

function streamOnce(t: Target, agent: Agent): Promise<StreamSample> {
  return new Promise((resolve, reject) => {
    const url = new URL(t.origin + t.path);
    const t0 = performance.now();
    let ttfb = -1;
    let text = '';
    const req = request(
      { host: url.hostname, port: url.port, path: url.pathname, method: 'POST', agent, headers: { ...t.headers, 'content-length': String(Buffer.byteLength(t.body)) } },
      (res) => {
        res.setEncoding('utf8');
        res.on('data', (c: string) => {
          if (ttfb < 0) ttfb = performance.now() - t0;
          text += c;
        });
        res.on('end', () => {
          if (res.statusCode !== 200 || !text.includes('data: [DONE]')) {
            return reject(new Error(`${t.label}: stream answered ${res.statusCode}: ${text.slice(0, 300)}`));
          }
          resolve({ ttfbMs: ttfb, totalMs: performance.now() - t0 });
        });
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(t.body);
  });
}

function summarise(target: string, s: StreamSample[]): StreamStats {
  const ttfb = s.map((x) => x.ttfbMs);
  const total = s.map((x) => x.totalMs);
  return {
    target,
    samples: s.length,
    ttfbMedian: median(ttfb),
    ttfbP99: percentile(ttfb, 99),
    totalMedian: median(total),
    totalP99: percentile(total, 99),
  };
}

/** Interleaves baseline and subject request by request, so drift on the machine hits both alike. */
export async function measureStreams(baseline: Target, subject: Target, n: number, warmup = 3): Promise<{ baseline: StreamStats; subject: StreamStats }> {
  const agent = new Agent({ keepAlive: true, maxSockets: 2 });
  try {
    const samples: [StreamSample[], StreamSample[]] = [[], []];
    for (let i = 0; i < warmup + n; i++) {
      const b = await streamOnce(baseline, agent);
      const s = await streamOnce(subject, agent);
      if (i >= warmup) {
        samples[0].push(b);
        samples[1].push(s);
      }
    }
    return { baseline: summarise(baseline.label, samples[0]), subject: summarise(subject.label, samples[1]) };
  } finally {
    agent.destroy();
  }
}
