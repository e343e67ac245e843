/**
 * One managed batch, from where its record says it is to a terminal state:
 *
 *   validating ─(bad input)→ failed
 *       └→ in_progress ─(all lines done)→ finalizing → completed
 *                      ├─(past expires_at)→ expired      (lines not run: `batch_expired` in the error file)
 *                      └─(cancel)→ cancelling → cancelled (in-flight lines finish and are kept)
 *
 * Crash safety: a line is finished once its row is committed (recorder.ts); a resumed run skips
 * finished lines and re-runs the others, and the result files are written from the rows, so no
 * finished line is lost or written twice. Shutdown aborts in-flight lines without recording them.
 */
import {
  Errors,
  type Clock, type FileService, type Kernel, type Logger, type Principal, type Router,
} from '../../../core/index.js';
import { unixSeconds } from './clock.js';
import { dispatchLine, type LinePlan } from './dispatch.js';
import { recordExpiredLines, writeResultFiles } from './finalize.js';
import { isBlank, isLineError, lineError, parseLine, type LineError, type ParsedLine } from './input.js';
import { jsonlLines } from './jsonl.js';
import { LineRecorder } from './recorder.js';
import { ACTIVE_STATUSES, LineState, type BatchRepo, type BatchRow } from './repo.js';
import type { SealedRequest } from './capture.js';
import { validateInput } from './validate-input.js';

export interface RunOptions {
  concurrency: number;
  maxLines: number;
  maxLineBytes: number;
  maxJsonDepth: number;
  maxReportedErrors: number;
}

export interface RunDeps {
  kernel: Kernel;
  routes: Router;
  repo: BatchRepo;
  files: FileService;
  clock: Clock;
  logger: Logger;
  options: RunOptions;
}

type StopReason = 'cancel' | 'expire' | 'shutdown' | 'error';

export class BatchRun {
  readonly id: string;
  #row: BatchRow;
  #stop: StopReason | undefined;
  #failure: unknown;
  /** Set once the run must drop what is in flight (shutdown, expiry, failure). */
  #aborted: unknown;
  /** One controller per line in flight, as each live request has its own signal (no listeners pile up on a shared one). */
  readonly #lines = new Set<AbortController>();
  #inFlight = 0;
  #wake: (() => void) | undefined;

  constructor(
    private readonly deps: RunDeps,
    row: BatchRow,
    private readonly sealed: SealedRequest,
    private readonly principal: Principal | undefined,
  ) {
    this.id = row.id;
    this.#row = row;
  }

  /** Runs to a terminal state (or until shut down); never rejects. */
  run(): Promise<void> {
    return this.#main().catch((e) => this.#crash(e));
  }

  /** Stops scheduling lines; in-flight ones finish and are kept. */
  cancel(): void {
    this.#stop ??= 'cancel';
    this.#wakeUp();
  }

  /** Past the window: stop scheduling and abort in-flight lines (they are reported as expired). */
  expireIfDue(): void {
    if (this.#stop !== undefined || !this.#due()) return;
    this.#stop = 'expire';
    this.#abortLines(Errors.unavailable(`batch ${this.id} expired`));
  }

  /** Gateway shutdown: abort in-flight lines without recording them; the batch resumes at the next start. */
  shutdown(): void {
    this.#stop = 'shutdown';
    this.#abortLines(Errors.unavailable('the gateway is shutting down'));
  }

  #abortLines(reason: unknown): void {
    this.#aborted ??= reason;
    for (const line of this.#lines) line.abort(reason);
    this.#wakeUp();
  }

  async #main(): Promise<void> {
    if (this.#row.status === 'validating' && !(await this.#validate())) {
      // Failed, or stopped while validating: a cancel or an expiry still needs its terminal state.
      if (this.#stop !== 'shutdown') await this.#finish();
      return;
    }
    if (this.#row.status === 'in_progress') await this.#execute();
    if (this.#stop === 'shutdown') return;
    if (this.#failure) throw this.#failure;
    await this.#finish();
  }

  /** Whether the batch may go on to run its lines. */
  async #validate(): Promise<boolean> {
    const { repo, files, clock, options } = this.deps;
    const input = await this.#localInput();
    if (input === undefined) return false;
    const verdict = await validateInput(await files.read(input), this.#row.endpoint, {
      maxLines: options.maxLines, maxLineBytes: options.maxLineBytes, maxJsonDepth: options.maxJsonDepth, maxReported: options.maxReportedErrors,
    }, () => this.#stop !== undefined);
    if (this.#stop !== undefined) return false;
    if (verdict.errors.length > 0) {
      await this.#fail(verdict.errors);
      return false;
    }
    const patch = { status: 'in_progress' as const, in_progress_at: unixSeconds(clock), total: verdict.total };
    if (!(await repo.transition(this.id, ['validating'], patch))) return false;
    this.#row = { ...this.#row, ...patch };
    return true;
  }

  /** The stored input file; one that lives at the provider is fetched first. */
  async #localInput(): Promise<string | undefined> {
    const { repo, files } = this.deps;
    const row = this.#row;
    if (row.local_input_file_id) return row.local_input_file_id;
    const scope = { organisationId: row.organisation_id, workspaceId: row.workspace_id };
    let local = (await files.get(row.input_file_id, scope))?.id;
    if (local === undefined && this.sealed.api) {
      const controller = this.#track();
      try {
        local = (await files.pullFromProvider(row.input_file_id, this.sealed.api, {
          purpose: 'batch', filename: `${row.input_file_id}.jsonl`, scope,
        }, controller.signal)).id;
      } catch (e) {
        if (this.#stop === 'shutdown') return undefined;
        await this.#fail([lineError(null, 'invalid_input_file', `input file ${row.input_file_id} could not be fetched from the provider: ${(e as Error).message}`, 'input_file_id')]);
        return undefined;
      } finally {
        this.#lines.delete(controller);
      }
    }
    if (local === undefined) {
      await this.#fail([lineError(null, 'invalid_input_file', `input file ${row.input_file_id} does not exist`, 'input_file_id')]);
      return undefined;
    }
    await repo.update(this.id, { local_input_file_id: local });
    this.#row = { ...row, local_input_file_id: local };
    return local;
  }

  async #execute(): Promise<void> {
    const { repo, files, options } = this.deps;
    const plan = this.#plan();
    const finished = await repo.finishedLines(this.id);
    const counts = await repo.countLines(this.id);
    await repo.update(this.id, counts);
    const recorder = new LineRecorder(repo, this.id, counts);
    const source = await files.read(this.#row.local_input_file_id!);
    try {
      for await (const raw of jsonlLines(source, options.maxLineBytes)) {
        if (this.#stop !== undefined) break;
        if (isBlank(raw) || finished.has(raw.no)) continue;
        const line = parseLine(raw, this.#row.endpoint, options.maxJsonDepth);
        if (isLineError(line)) continue; // validated already; stored files do not change
        if (this.#due()) {
          this.expireIfDue();
          break;
        }
        while (this.#inFlight >= options.concurrency && this.#stop === undefined) await this.#sleep();
        if (this.#stop !== undefined) break;
        this.#spawn(plan, line, recorder);
      }
    } finally {
      while (this.#inFlight > 0) await this.#sleep();
      await recorder.settled();
    }
  }

  #spawn(plan: LinePlan, line: ParsedLine, recorder: LineRecorder): void {
    const controller = this.#track();
    this.#inFlight++;
    dispatchLine(this.deps.kernel, plan, line, controller.signal)
      .then((result) => {
        // Aborted (shutdown, expiry): the line is not finished; it runs again or is reported as expired.
        if (this.#aborted !== undefined) return undefined;
        return recorder.record({ line: line.no, ok: result.ok ? LineState.OK : LineState.FAILED, result: result.text });
      })
      .catch((e: unknown) => {
        this.#failure ??= e;
        this.#stop = 'error';
        this.#abortLines(Errors.internal());
      })
      .finally(() => {
        this.#lines.delete(controller);
        this.#inFlight--;
        this.#wakeUp();
      });
  }

  /** Moves the batch to its terminal state from what the store says now (a cancel may have come in). */
  async #finish(): Promise<void> {
    const { repo, files, clock } = this.deps;
    const row = await repo.get(this.id);
    if (!row) return;
    switch (row.status) {
      case 'cancelling':
        return this.#close('cancelled', row);
      case 'finalizing':
        return this.#close('completed', row);
      case 'validating':
      case 'in_progress': {
        if (this.#stop === 'expire') return this.#close('expired', row);
        if (row.status === 'validating') return undefined;
        const patch = { status: 'finalizing' as const, finalizing_at: unixSeconds(clock), output_file_id: files.newId(), error_file_id: files.newId() };
        if (!(await repo.transition(this.id, ['in_progress'], patch))) return this.#finish();
        return this.#close('completed', { ...row, ...patch });
      }
      default:
        return undefined;
    }
  }

  async #close(kind: 'completed' | 'cancelled' | 'expired', row: BatchRow): Promise<void> {
    const { repo, files, clock, options } = this.deps;
    const outputId = row.output_file_id ?? files.newId();
    const errorId = row.error_file_id ?? files.newId();
    if (row.output_file_id === null || row.error_file_id === null) await repo.update(this.id, { output_file_id: outputId, error_file_id: errorId });
    if (kind === 'expired' && row.local_input_file_id) await recordExpiredLines(repo, files, row, row.local_input_file_id, options);
    const written = await writeResultFiles(repo, files, row, outputId, errorId);
    const counts = await repo.countLines(this.id);
    const now = unixSeconds(clock);
    const moved = await repo.transition(this.id, FROM[kind], {
      status: kind,
      ...(kind === 'completed' ? { completed_at: now } : kind === 'cancelled' ? { cancelled_at: now } : { expired_at: now }),
      ...counts,
      output_file_id: written.outputFileId,
      error_file_id: written.errorFileId,
    });
    if (!moved) return this.#finish();
    await repo.deleteLines(this.id);
    this.deps.logger.info({ batch: this.id, status: kind, ...counts }, 'batch finished');
  }

  async #fail(errors: LineError[]): Promise<void> {
    const moved = await this.deps.repo.transition(this.id, ['validating', 'in_progress'], {
      status: 'failed', failed_at: unixSeconds(this.deps.clock), errors: JSON.stringify(errors),
    });
    if (moved) await this.deps.repo.deleteLines(this.id);
  }

  /** Unexpected failure (store, disk, bug): logged, and the batch fails visibly rather than hanging. */
  async #crash(e: unknown): Promise<void> {
    this.deps.logger.error({ err: e, batch: this.id }, 'batch run failed');
    if (this.#stop === 'shutdown') return;
    try {
      await this.deps.repo.transition(this.id, ACTIVE_STATUSES, {
        status: 'failed',
        failed_at: unixSeconds(this.deps.clock),
        errors: JSON.stringify([lineError(null, 'internal_error', `the gateway could not run this batch: ${(e as Error).message ?? e}`)]),
      });
    } catch {
      /* the store itself is failing: the batch resumes at the next start */
    }
  }

  /** A signal for one piece of work in flight (a line, fetching the input) that the run can abort. */
  #track(): AbortController {
    const controller = new AbortController();
    this.#lines.add(controller);
    if (this.#aborted !== undefined) controller.abort(this.#aborted);
    return controller;
  }

  #plan(): LinePlan {
    const match = this.deps.routes.match('POST', this.#row.endpoint);
    if (!match.route) throw new Error(`no route serves ${this.#row.endpoint}`);
    return { route: match.route, params: match.params, path: this.#row.endpoint, headers: this.sealed.headers, principal: this.principal };
  }

  #due(): boolean {
    const expiresAt = this.#row.expires_at;
    return expiresAt !== null && this.deps.clock.now() >= expiresAt * 1000;
  }

  #sleep(): Promise<void> {
    return new Promise<void>((resolve) => {
      this.#wake = resolve;
    });
  }

  #wakeUp(): void {
    const wake = this.#wake;
    this.#wake = undefined;
    wake?.();
  }
}

const FROM = {
  completed: ['finalizing'],
  cancelled: ['cancelling'],
  expired: ['validating', 'in_progress'],
} as const;
