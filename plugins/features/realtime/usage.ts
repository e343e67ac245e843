/**
 * Token usage of a realtime session: the sum of `response.usage` over the server's `response.done`
 * events. Only text frames naming `response.done` are parsed (audio deltas, the bulk of a
 * session, are skipped by a byte search).
 */
const MARKER = Buffer.from('"response.done"');

export class SessionUsage {
  inputTokens = 0;
  outputTokens = 0;
  responses = 0;

  /** Reads one server frame. */
  observe(data: Buffer, isBinary: boolean): void {
    if (isBinary || data.indexOf(MARKER) === -1) return;
    let event: unknown;
    try {
      event = JSON.parse(data.toString('utf8'));
    } catch {
      return; // not ours to judge: the client gets the frame as it came
    }
    if (!isObject(event) || event['type'] !== 'response.done' || !isObject(event['response'])) return;
    this.responses++;
    const usage = event['response']['usage'];
    if (!isObject(usage)) return;
    this.inputTokens += count(usage['input_tokens']);
    this.outputTokens += count(usage['output_tokens']);
  }

  /** The usage in the Responses API's names, as request logs and limits read it. */
  toJson(): Record<string, number> | undefined {
    if (this.responses === 0) return undefined;
    return { input_tokens: this.inputTokens, output_tokens: this.outputTokens, total_tokens: this.inputTokens + this.outputTokens };
  }
}

function isObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

function count(v: unknown): number {
  return typeof v === 'number' && Number.isFinite(v) && v >= 0 ? Math.round(v) : 0;
}
