/**
 * Guardrails on tool calls: the config's input side (before_request_hooks, input_guardrails) on a
 * call's arguments, its output side (output_guardrails, after_request_hooks) on the tool's result.
 * Checks see the endpoint `mcp`, the server's slug as provider and the tool as model.
 */
import type { ConfigNode, GuardedCall, GuardedContent, GuardrailEvaluator, RequestContext } from '../../../core/index.js';
import { RpcCode, rpcError, type JsonRpcId, type Message } from './jsonrpc.js';

export const MCP_ENDPOINT = 'mcp';

/** Whether a config has hooks on either side (else no evaluation at all). */
export function guardsTools(config: ConfigNode | undefined): config is ConfigNode {
  return config !== undefined && (config.before_request_hooks !== undefined || config.input_guardrails !== undefined
    || config.output_guardrails !== undefined || config.after_request_hooks !== undefined);
}

/** Checks read the arguments as JSON text (so patterns can match keys and values alike). */
export function argumentsContent(tool: string, args: unknown): GuardedContent {
  const value = args === undefined ? {} : args;
  return { json: { name: tool, arguments: value }, text: JSON.stringify(value) };
}

/** Checks read a result's text items joined with "\n"; a result with only structured content, its JSON. */
export function resultContent(result: Record<string, unknown>): GuardedContent {
  const content = result['content'];
  const texts: string[] = [];
  if (Array.isArray(content)) {
    for (const item of content) {
      if (item !== null && typeof item === 'object' && (item as Message)['type'] === 'text' && typeof (item as Message)['text'] === 'string') {
        texts.push((item as Message)['text'] as string);
      }
    }
  }
  if (texts.length === 0 && result['structuredContent'] !== undefined) texts.push(JSON.stringify(result['structuredContent']));
  return { json: result, text: texts.join('\n') };
}

export class ToolGuard {
  constructor(private readonly evaluator: () => GuardrailEvaluator | undefined) {}

  /** The error answer when the config's input side denies the call; undefined to go on. */
  async arguments(id: JsonRpcId, call: GuardedCall, ctx: RequestContext): Promise<Message | undefined> {
    const evaluation = await this.#evaluator().evaluate('input', call, undefined, ctx, ctx.request.signal);
    if (evaluation.denied.length === 0) return undefined;
    return rpcError(id, RpcCode.GUARDRAIL_DENIED, `guardrail ${names(evaluation.denied)} denied the arguments of tool "${call.model}"`, { hook_results: evaluation.results });
  }

  /** The answer the client gets for a tool's result: unchanged, or the error when the output side denies it. */
  async result(message: Message, call: GuardedCall, ctx: RequestContext): Promise<Message> {
    const result = message['result'];
    if (result === null || typeof result !== 'object' || Array.isArray(result)) return message;
    const evaluation = await this.#evaluator().evaluate('output', call, resultContent(result as Message), ctx, ctx.request.signal);
    if (evaluation.denied.length === 0) return message;
    return rpcError(message['id'] as JsonRpcId, RpcCode.GUARDRAIL_DENIED, `guardrail ${names(evaluation.denied)} denied the result of tool "${call.model}"`, { hook_results: evaluation.results });
  }

  #evaluator(): GuardrailEvaluator {
    const found = this.evaluator();
    // A config with hooks passed validation, so the runner is loaded; this guards a custom composition.
    if (!found) throw new Error('guardrail hooks in the config but no GuardrailEvaluatorService (load guardrails.runner)');
    return found;
  }
}

function names(ids: readonly string[]): string {
  return ids.map((id) => JSON.stringify(id)).join(', ');
}
