/**
 * Unified request options → Gemini's: tools → tools[0].functionDeclarations, tool_choice →
 * toolConfig.functionCallingConfig (AUTO / NONE / ANY + allowedFunctionNames), sampling fields →
 * generationConfig. Fields Gemini has no equivalent for (logit_bias, logprobs, user,
 * parallel_tool_calls ...) are left out.
 */

type Json = Record<string, unknown>;

export function functionDeclarations(body: Json): Json[] | undefined {
  const declarations: Json[] = [];
  const tools = body['tools'];
  if (Array.isArray(tools)) {
    for (const tool of tools as Json[]) {
      if (tool['type'] === 'function' && tool['function']) declarations.push(declaration(tool['function'] as Json));
    }
  }
  const functions = body['functions'];
  if (Array.isArray(functions)) for (const fn of functions as Json[]) declarations.push(declaration(fn));
  return declarations.length > 0 ? declarations : undefined;
}

function declaration(fn: Json): Json {
  const out: Json = { name: fn['name'] };
  if (typeof fn['description'] === 'string') out['description'] = fn['description'];
  if (fn['parameters'] && typeof fn['parameters'] === 'object') out['parameters'] = withoutSchemaKeyword(fn['parameters'] as Json);
  return out;
}

/** Gemini's schema rejects the `$schema` keyword that JSON-schema generators add. */
function withoutSchemaKeyword(schema: Json): Json {
  if (!('$schema' in schema)) return schema;
  const { $schema: _ignored, ...rest } = schema;
  return rest;
}

export function functionCallingConfig(choice: unknown): Json | undefined {
  if (choice === undefined || choice === null) return undefined;
  if (choice === 'auto') return { mode: 'AUTO' };
  if (choice === 'none') return { mode: 'NONE' };
  if (choice === 'required') return { mode: 'ANY' };
  if (typeof choice === 'object') {
    const c = choice as { function?: { name?: unknown }; name?: unknown };
    const name = c.function?.name ?? c.name;
    if (typeof name === 'string') return { mode: 'ANY', allowedFunctionNames: [name] };
  }
  return undefined;
}

export function generationConfig(body: Json): Json | undefined {
  const config: Json = {};
  let any = false;
  const set = (key: string, value: unknown) => {
    if (value === undefined || value === null) return;
    config[key] = value;
    any = true;
  };
  set('temperature', body['temperature']);
  set('topP', body['top_p']);
  set('maxOutputTokens', body['max_completion_tokens'] ?? body['max_tokens']);
  const stop = body['stop'];
  set('stopSequences', typeof stop === 'string' ? [stop] : stop);
  set('candidateCount', body['n']);
  set('seed', body['seed']);
  set('presencePenalty', body['presence_penalty']);
  set('frequencyPenalty', body['frequency_penalty']);
  const format = body['response_format'] as Json | undefined;
  if (format?.['type'] === 'json_object') set('responseMimeType', 'application/json');
  else if (format?.['type'] === 'json_schema') {
    set('responseMimeType', 'application/json');
    const schema = (format['json_schema'] as Json | undefined)?.['schema'];
    if (schema && typeof schema === 'object') set('responseSchema', withoutSchemaKeyword(schema as Json));
  }
  return any ? config : undefined;
}
