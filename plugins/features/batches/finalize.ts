/**
 * The end of a managed batch: output and error files written from the stored line rows, in input
 * order. Safe to repeat after a crash: file ids are fixed before writing and a save with an
 * existing id replaces the file.
 */
import { sortableId, type FileService } from '../../../core/index.js';
import { isBlank, isLineError, parseLine } from './input.js';
import { jsonlLines } from './jsonl.js';
import { LineState, type BatchRepo, type BatchRow, type LineRow } from './repo.js';

const PAGE = 500;
const CHUNK_CHARS = 64 * 1024;

export interface ResultFiles {
  outputFileId: string | null;
  errorFileId: string | null;
}

export async function writeResultFiles(
  repo: BatchRepo, files: FileService, row: BatchRow, outputId: string, errorId: string,
): Promise<ResultFiles> {
  const scope = { organisationId: row.organisation_id, workspaceId: row.workspace_id };
  const result: ResultFiles = { outputFileId: null, errorFileId: null };
  if (await repo.hasLines(row.id, true)) {
    await files.save({ purpose: 'batch_output', filename: `${row.id}_output.jsonl`, scope }, resultText(repo, row.id, true), outputId);
    result.outputFileId = outputId;
  }
  if (await repo.hasLines(row.id, false)) {
    await files.save({ purpose: 'batch_output', filename: `${row.id}_error.jsonl`, scope }, resultText(repo, row.id, false), errorId);
    result.errorFileId = errorId;
  }
  return result;
}

/** The stored output lines, paged from the store and handed out in chunks of about 64 KB. */
async function* resultText(repo: BatchRepo, batchId: string, successes: boolean): AsyncGenerator<string> {
  let after = 0;
  let buffer = '';
  for (;;) {
    const page = await repo.pageLines(batchId, successes, after, PAGE);
    for (const row of page) {
      buffer += row.result + '\n';
      if (buffer.length >= CHUNK_CHARS) {
        yield buffer;
        buffer = '';
      }
    }
    if (page.length < PAGE) break;
    after = page[page.length - 1]!.line;
  }
  if (buffer) yield buffer;
}

/**
 * Lines that never ran before the window closed are reported in the error file with code
 * `batch_expired`, as OpenAI does; they are stored as rows too, so a repeat adds none twice.
 */
export async function recordExpiredLines(
  repo: BatchRepo, files: FileService, row: BatchRow, inputFileId: string, limits: { maxLineBytes: number; maxJsonDepth: number },
): Promise<void> {
  const finished = await repo.finishedLines(row.id);
  const rows: LineRow[] = [];
  for await (const raw of jsonlLines(await files.read(inputFileId), limits.maxLineBytes)) {
    if (isBlank(raw) || finished.has(raw.no)) continue;
    const line = parseLine(raw, row.endpoint, limits.maxJsonDepth);
    if (isLineError(line)) continue;
    rows.push({
      line: line.no,
      ok: LineState.NOT_RUN,
      result: JSON.stringify({
        id: sortableId('batch_req_'),
        custom_id: line.customId,
        response: null,
        error: { code: 'batch_expired', message: 'This request could not be executed before the completion window expired.' },
      }),
    });
    if (rows.length >= PAGE) await repo.insertLines(row.id, rows.splice(0));
  }
  if (rows.length > 0) await repo.insertLines(row.id, rows);
}
