/**
 * A prompt version compiled for rendering: its stored fields, the parsed template of every text
 * (message contents, text parts, a completion `prompt`), and the variables they need.
 * Rendering builds a fresh body: the texts rendered, every other field as stored.
 */
import { Errors } from '../../../core/index.js';
import { compileText, hasVariable, renderText, TemplateError, type CompiledText } from './template.js';

export type PromptKind = 'chat' | 'completion';

export interface CompiledPrompt {
  readonly id: string;
  readonly version: number;
  readonly createdAt: number;
  /** `chat` (messages, for /v1/chat/completions) or `completion` (prompt, for /v1/completions). */
  readonly kind: PromptKind;
  /** The stored fields (model, messages or prompt, hyperparameters), frozen. */
  readonly template: Readonly<Record<string, unknown>>;
  /** Top-level variables: rendering without one is a 400. */
  readonly required: readonly string[];
  /** Section names: may be absent. */
  readonly optional: readonly string[];
  /** Parsed texts by their path in the template (`messages.0.content`, `messages.1.content.0.text`, `prompt.1`). */
  readonly texts: ReadonlyMap<string, CompiledText>;
}

type Message = Record<string, unknown> & { content?: unknown };

/** Parses every text of a template; a broken one throws a 400 naming its path. */
export function compilePrompt(id: string, version: number, createdAt: number, template: Record<string, unknown>): CompiledPrompt {
  const required = new Set<string>();
  const optional = new Set<string>();
  const texts = new Map<string, CompiledText>();
  const add = (path: string, source: string) => {
    try {
      texts.set(path, compileText(source, required, optional));
    } catch (e) {
      if (e instanceof TemplateError) throw Errors.invalidBody(path, e.message);
      throw e;
    }
  };
  const messages = template['messages'];
  if (Array.isArray(messages)) {
    messages.forEach((message: Message, i) => {
      const content = message.content;
      if (typeof content === 'string') add(`messages.${i}.content`, content);
      else if (Array.isArray(content)) {
        content.forEach((part: Record<string, unknown>, j) => {
          if (typeof part?.['text'] === 'string') add(`messages.${i}.content.${j}.text`, part['text']);
        });
      }
    });
  }
  const prompt = template['prompt'];
  if (typeof prompt === 'string') add('prompt', prompt);
  else if (Array.isArray(prompt)) prompt.forEach((p, i) => typeof p === 'string' && add(`prompt.${i}`, p));
  return Object.freeze({
    id, version, createdAt,
    kind: messages !== undefined ? 'chat' : 'completion',
    template,
    required: [...required],
    optional: [...optional].filter((name) => !required.has(name)),
    texts,
  });
}

/**
 * The template with its texts rendered, then `overrides` (the caller's fields) on top. A missing
 * top-level variable is a 400 naming it; when the caller sends its own messages (or prompt) the
 * template's texts are not used, so nothing is rendered and no variable is needed.
 */
export function renderPrompt(prompt: CompiledPrompt, variables: Record<string, unknown>, overrides: Record<string, unknown>): Record<string, unknown> {
  const textKey = prompt.kind === 'chat' ? 'messages' : 'prompt';
  if (overrides[textKey] !== undefined) return { ...prompt.template, ...overrides };
  return { ...renderTexts(prompt, variables), ...overrides };
}

function renderTexts(prompt: CompiledPrompt, variables: Record<string, unknown>): Record<string, unknown> {
  for (const name of prompt.required) {
    if (!hasVariable(variables, name)) throw Errors.invalidBody(`variables.${name}`, `is required by prompt "${prompt.id}" (version ${prompt.version})`);
  }
  const text = (path: string, fallback: unknown) => {
    const compiled = prompt.texts.get(path);
    return compiled ? renderText(compiled, variables) : fallback;
  };
  const body: Record<string, unknown> = { ...prompt.template };
  const messages = prompt.template['messages'];
  if (Array.isArray(messages)) {
    body['messages'] = messages.map((message: Message, i) => {
      const content = message.content;
      if (typeof content === 'string') return { ...message, content: text(`messages.${i}.content`, content) };
      if (!Array.isArray(content)) return { ...message };
      return {
        ...message,
        content: content.map((part: Record<string, unknown>, j) => (typeof part?.['text'] === 'string' ? { ...part, text: text(`messages.${i}.content.${j}.text`, part['text']) } : part)),
      };
    });
  }
  const source = prompt.template['prompt'];
  if (typeof source === 'string') body['prompt'] = text('prompt', source);
  else if (Array.isArray(source)) body['prompt'] = source.map((p, i) => text(`prompt.${i}`, p));
  return body;
}
