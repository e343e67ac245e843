/**
 * The validating phase: one streamed pass over the input file. Any bad line fails the batch (as
 * OpenAI does); `errors` keeps the first `maxReported` problems with their 1-based line numbers.
 */
import { jsonlLines } from './jsonl.js';
import { isBlank, isLineError, lineError, parseLine, type LineError } from './input.js';

export interface InputLimits {
  maxLines: number;
  maxLineBytes: number;
  maxJsonDepth: number;
  maxReported: number;
}

export interface InputVerdict {
  /** Requests in the file (valid lines). */
  total: number;
  errors: LineError[];
}

export async function validateInput(
  source: AsyncIterable<Uint8Array>, endpoint: string, limits: InputLimits, stopped: () => boolean,
): Promise<InputVerdict> {
  const errors: LineError[] = [];
  const seen = new Set<string>();
  let total = 0;
  let problems = 0;
  const report = (error: LineError) => {
    problems++;
    if (errors.length < limits.maxReported) errors.push(error);
  };
  for await (const raw of jsonlLines(source, limits.maxLineBytes)) {
    if (stopped()) break;
    if (isBlank(raw)) continue;
    const line = parseLine(raw, endpoint, limits.maxJsonDepth);
    if (isLineError(line)) {
      report(line);
      continue;
    }
    if (seen.has(line.customId)) {
      report(lineError(line.no, 'duplicate_custom_id', `custom_id "${line.customId}" is used by an earlier line`, 'custom_id'));
      continue;
    }
    seen.add(line.customId);
    total++;
    if (total > limits.maxLines) {
      return { total, errors: [lineError(null, 'too_many_requests', `the input file has more than ${limits.maxLines} requests`)] };
    }
  }
  if (problems === 0 && total === 0) errors.push(lineError(null, 'empty_file', 'the input file holds no requests'));
  return { total, errors };
}
