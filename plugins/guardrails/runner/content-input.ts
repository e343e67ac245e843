/**
 * What checks see when the runner evaluates content outside the chat lifecycle (GuardrailEvaluator):
 * the same CheckInput shape, built from the caller's content instead of an attempt. Its abort
 * signal follows the caller's and aborts once the runner stops waiting for the phase.
 */
import type { CheckInput, GuardedCall, GuardedContent, GuardrailPhase } from '../../../core/index.js';

const PHASE_SETTLED = 'guardrail phase settled';

export class ContentInput implements CheckInput {
  readonly metadata: Readonly<Record<string, string>>;
  readonly endpoint: string;
  readonly provider?: string;
  readonly model?: string;
  readonly request: { readonly json: Readonly<Record<string, unknown>>; readonly text: string };
  readonly response?: { readonly json: unknown; readonly text: string; readonly status: number };
  readonly #controller = new AbortController();
  readonly #forward: () => void;
  #derived?: ContentInput[];

  constructor(
    readonly phase: GuardrailPhase,
    private readonly call: GuardedCall,
    metadata: Readonly<Record<string, string>>,
    private readonly caller: AbortSignal,
    request: GuardedContent,
    answer?: GuardedContent,
  ) {
    this.metadata = metadata;
    this.endpoint = call.endpoint;
    if (call.provider !== undefined) this.provider = call.provider;
    if (call.model !== undefined) this.model = call.model;
    this.request = { json: request.json, text: request.text };
    if (answer) this.response = { json: answer.json, text: answer.text, status: 200 };
    this.#forward = () => this.#controller.abort(caller.reason);
    if (caller.aborted) this.#controller.abort(caller.reason);
    else caller.addEventListener('abort', this.#forward, { once: true });
  }

  get signal(): AbortSignal {
    return this.#controller.signal;
  }

  /** The same phase over another text (a chain of transformations); settled with this one. */
  withText(text: string): ContentInput {
    const next = this.response
      ? new ContentInput(this.phase, this.call, this.metadata, this.caller, this.request, { json: this.response.json as Record<string, unknown>, text })
      : new ContentInput(this.phase, this.call, this.metadata, this.caller, { json: this.request.json, text });
    (this.#derived ??= []).push(next);
    return next;
  }

  settle(): void {
    if (this.#derived) for (const d of this.#derived) d.settle();
    this.caller.removeEventListener('abort', this.#forward);
    if (!this.#controller.signal.aborted) this.#controller.abort(new Error(PHASE_SETTLED));
  }
}
