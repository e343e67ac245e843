/**
 * What checks of one phase see (CheckInput). Built once per phase and shared by its checks.
 * Costs nothing for what no check reads: the request text of an answer phase is computed on
 * first read, and the abort signal is created only when a check asks for it. It aborts when the
 * client leaves or when the runner is done waiting for the phase (so a check that timed out can
 * stop its work).
 */
import type { Attempt, CheckInput, GuardrailPhase } from '../../../core/index.js';
import { requestText } from './text.js';

export interface AnswerSeen {
  readonly json: unknown;
  readonly text: string;
  readonly status: number;
}

const PHASE_SETTLED = 'guardrail phase settled';

export class PhaseInput implements CheckInput {
  readonly metadata: Readonly<Record<string, string>>;
  readonly endpoint: string;
  readonly provider?: string;
  readonly model?: string;
  #request?: { readonly json: Readonly<Record<string, unknown>>; readonly text: string };
  #controller?: AbortController;
  #forward?: () => void;
  #derived?: PhaseInput[];

  constructor(
    readonly phase: GuardrailPhase,
    private readonly attempt: Attempt,
    requestTextValue: string | undefined,
    readonly response?: AnswerSeen,
  ) {
    const target = attempt.target;
    const body = attempt.body;
    this.metadata = attempt.ctx.metadata;
    this.endpoint = attempt.endpoint.id;
    if (typeof target.provider === 'string') this.provider = target.provider;
    if (typeof body['model'] === 'string') this.model = body['model'];
    if (requestTextValue !== undefined) this.#request = { json: body, text: requestTextValue };
  }

  get request(): { readonly json: Readonly<Record<string, unknown>>; readonly text: string } {
    return (this.#request ??= { json: this.attempt.body, text: requestText(this.attempt.body).text });
  }

  get signal(): AbortSignal {
    if (!this.#controller) {
      const controller = new AbortController();
      const client = this.attempt.signal;
      if (client.aborted) controller.abort(client.reason);
      else {
        this.#forward = () => controller.abort(client.reason);
        client.addEventListener('abort', this.#forward, { once: true });
      }
      this.#controller = controller;
    }
    return this.#controller.signal;
  }

  /** The same phase over another text (the next check of a chain of transformations); settled with this one. */
  withText(text: string): PhaseInput {
    const next = this.response
      ? new PhaseInput(this.phase, this.attempt, undefined, { ...this.response, text })
      : new PhaseInput(this.phase, this.attempt, text);
    (this.#derived ??= []).push(next);
    return next;
  }

  /** The runner stopped waiting: checks still running (on this text or a derived one) are told to stop. */
  settle(): void {
    if (this.#derived) for (const d of this.#derived) d.settle();
    const controller = this.#controller;
    if (!controller) return;
    if (this.#forward) this.attempt.signal.removeEventListener('abort', this.#forward);
    if (!controller.signal.aborted) controller.abort(new Error(PHASE_SETTLED));
  }
}
