/**
 * Mustache (logic-less) enters the prompts plugin here. A template string is parsed once, when a
 * version is stored or first loaded; rendering walks the parsed tokens, never the source again.
 *
 *   {{name}} / {{{name}}} / {{&name}}   a variable; at the top level it is REQUIRED (missing → 400)
 *   {{#name}}...{{/name}}               a section: optional (absent or falsy renders nothing);
 *   {{^name}}...{{/name}}               an inverted section: optional; names inside resolve in the section
 *   {{! comment }}, {{=<% %>=}}          as Mustache
 *   {{> partial}}                       refused when the version is stored (no partials)
 *
 * HTML escaping is off: strings are inserted as they are; numbers and booleans as text; objects
 * and arrays as JSON.
 */
import Mustache, { type RenderOptions, type TemplateSpans } from 'mustache';

export type Tokens = TemplateSpans;

export interface CompiledText {
  readonly source: string;
  readonly tokens: Tokens;
}

export class TemplateError extends Error {}

// A writer of our own with no template cache: parsed tokens live in the compiled prompts, and
// Mustache's default cache would grow with every distinct string ever parsed.
const writer = new Mustache.Writer();
(writer as unknown as { templateCache: undefined }).templateCache = undefined;

const RENDER_OPTIONS: RenderOptions = {
  escape: (value: unknown) => (typeof value === 'string' ? value : JSON.stringify(value)),
};

/** Parses one template string; collects its top-level variables (required) and section names (optional). */
export function compileText(source: string, required: Set<string>, optional: Set<string>): CompiledText {
  let tokens: Tokens;
  try {
    tokens = writer.parse(source) as Tokens;
  } catch (e) {
    throw new TemplateError(`is not a valid template: ${(e as Error).message}`);
  }
  collect(tokens, true, required, optional);
  return { source, tokens };
}

function collect(tokens: Tokens, topLevel: boolean, required: Set<string>, optional: Set<string>): void {
  for (const token of tokens) {
    const [type, name] = token;
    if (type === '>') throw new TemplateError(`uses the partial "${name}"; partials are not supported`);
    if (type === 'name' || type === '&') {
      if (topLevel && name !== '.') required.add(name);
    } else if (type === '#' || type === '^') {
      if (topLevel) optional.add(name);
      collect(token[4] as Tokens, false, required, optional);
    }
  }
}

export function renderText(text: CompiledText, variables: Record<string, unknown>): string {
  return writer.renderTokens(text.tokens as unknown as string[][], new Mustache.Context(variables), undefined, text.source, RENDER_OPTIONS);
}

/** Whether a (dotted) name resolves in the variables, as Mustache looks it up from the top. */
export function hasVariable(variables: Record<string, unknown>, name: string): boolean {
  let value: unknown = variables;
  for (const part of name.split('.')) {
    if (value === null || typeof value !== 'object' || !Object.hasOwn(value, part)) return false;
    value = (value as Record<string, unknown>)[part];
  }
  return value !== undefined;
}
