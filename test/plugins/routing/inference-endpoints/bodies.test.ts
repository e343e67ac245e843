import { expect } from 'chai';
import type { Issue } from '../../../../core/schema.js';
import * as chat from '../../../../plugins/routing/inference-endpoints/bodies/chat.js';
import * as completions from '../../../../plugins/routing/inference-endpoints/bodies/completions.js';
import * as embeddings from '../../../../plugins/routing/inference-endpoints/bodies/embeddings.js';
import * as moderations from '../../../../plugins/routing/inference-endpoints/bodies/moderations.js';

type Validate = (body: unknown) => Issue[];
type Body = Record<string, unknown>;
/** Valid values, and invalid ones with the path and rule of the first issue. */
interface FieldCases {
  valid: unknown[];
  invalid: Array<[value: unknown, path: string, rule: string]>;
}

function accepts(validate: Validate, body: unknown): void {
  expect(validate(body)).to.deep.equal([]);
}

function rejects(validate: Validate, body: unknown, path: string, rule: string): void {
  expect(validate(body)[0]).to.deep.equal({ path, rule });
}

function show(value: unknown): string {
  const text = value === undefined ? 'undefined' : JSON.stringify(value);
  return text.length > 60 ? text.slice(0, 57) + '...' : text;
}

/** One `it` per value of `field` set on top of `base`. */
function fieldSuite(validate: Validate, base: Body, field: string, cases: FieldCases): void {
  describe(field, () => {
    for (const value of cases.valid) {
      it(`accepts ${show(value)}`, () => accepts(validate, { ...base, [field]: value }));
    }
    for (const [value, path, rule] of cases.invalid) {
      it(`rejects ${show(value)} (${path}: ${rule})`, () => rejects(validate, { ...base, [field]: value }, path, rule));
    }
  });
}

function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object') {
    for (const v of Object.values(value)) deepFreeze(v);
    Object.freeze(value);
  }
  return value;
}

const times = <T>(count: number, make: (i: number) => T): T[] => Array.from({ length: count }, (_, i) => make(i));
const penalty = (field: string): FieldCases => ({
  valid: [-2, 2, 0, 1.5, null],
  invalid: [
    [-2.01, field, 'must be >= -2'],
    [2.01, field, 'must be <= 2'],
    ['1', field, 'must be a number >= -2 and <= 2 or null'],
  ],
});

/** Fields chat and completions share, with the same rules (spec §8). */
const sampling: Record<string, FieldCases> = {
  frequency_penalty: penalty('frequency_penalty'),
  presence_penalty: penalty('presence_penalty'),
  logit_bias: {
    valid: [{}, { '50256': -100 }, { '50256': 100 }, { '1': 0, '2': 5.5 }, null],
    invalid: [
      [{ '50256': -100.01 }, 'logit_bias.50256', 'must be >= -100'],
      [{ '50256': 100.01 }, 'logit_bias.50256', 'must be <= 100'],
      [{ '50256': '5' }, 'logit_bias.50256', 'must be a number'],
      [{ hello: 5 }, 'logit_bias.hello', 'is not a token id'],
      [{ '-1': 5 }, 'logit_bias.-1', 'is not a token id'],
      [[5], 'logit_bias', 'must be an object or null'],
      ['50256', 'logit_bias', 'must be an object or null'],
    ],
  },
  n: {
    valid: [1, 128, 2, null],
    invalid: [
      [0, 'n', 'must be >= 1'],
      [129, 'n', 'must be <= 128'],
      [1.5, 'n', 'must be an integer'],
      ['2', 'n', 'must be an integer >= 1 and <= 128 or null'],
    ],
  },
  seed: {
    valid: [0, -7, 42, 2 ** 40, null],
    invalid: [
      [1.5, 'seed', 'must be an integer'],
      ['42', 'seed', 'must be an integer or null'],
    ],
  },
  stop: {
    valid: ['\n', '', [], ['a'], ['a', 'b', 'c', 'd'], null],
    invalid: [
      [['a', 'b', 'c', 'd', 'e'], 'stop', 'must have at most 4 item(s)'],
      [['a', 1], 'stop.1', 'must be a string'],
      [[1], 'stop.0', 'must be a string'],
      [1, 'stop', 'must be a string, an array of at most 4 strings or null'],
      [{ a: 1 }, 'stop', 'must be a string, an array of at most 4 strings or null'],
    ],
  },
  stream: {
    valid: [true, false, null],
    invalid: [['true', 'stream', 'must be a boolean or null']],
  },
  temperature: {
    valid: [0, 2, 0.7, null],
    invalid: [
      [-0.01, 'temperature', 'must be >= 0'],
      [2.01, 'temperature', 'must be <= 2'],
      ['hot', 'temperature', 'must be a number >= 0 and <= 2 or null'],
    ],
  },
  top_p: {
    valid: [0, 1, 0.9, null],
    invalid: [
      [-0.01, 'top_p', 'must be >= 0'],
      [1.01, 'top_p', 'must be <= 1'],
      [true, 'top_p', 'must be a number >= 0 and <= 1 or null'],
    ],
  },
  user: {
    valid: ['user-1234', ''],
    invalid: [
      [1234, 'user', 'must be a string'],
      [null, 'user', 'must be a string'],
    ],
  },
};

/** Rules every body shares: an object, `model` (required unless `modelRequired` is false), unknown keys pass. */
function commonSuite(validate: Validate, base: Body, modelRequired = true): void {
  describe('body', () => {
    it('accepts the minimal body', () => accepts(validate, base));
    for (const body of [null, [], 'text', 42]) {
      it(`rejects ${show(body)} as not an object`, () => rejects(validate, body, '', 'must be an object'));
    }
    it('accepts unknown fields (passed on to providers)', () =>
      accepts(validate, { ...base, service_tier: 'auto', metadata: { team: 'a' }, provider_extra: [1, { x: null }] }));
    if (modelRequired) {
      it('requires model', () => {
        const { model: _model, ...rest } = base;
        rejects(validate, rest, 'model', 'is required');
      });
    }
  });
  fieldSuite(validate, base, 'model', {
    valid: ['gpt-4o', 'x'],
    invalid: [
      ['', 'model', 'must be at least 1 character(s)'],
      [4, 'model', 'must be a string'],
      [null, 'model', 'must be a string'],
    ],
  });
}

function streamOptionsSuite(validate: Validate, base: Body): void {
  describe('stream_options', () => {
    it('accepts it when stream is true', () =>
      accepts(validate, { ...base, stream: true, stream_options: { include_usage: true } }));
    it('accepts an empty object when stream is true', () => accepts(validate, { ...base, stream: true, stream_options: {} }));
    it('accepts null without stream', () => accepts(validate, { ...base, stream_options: null }));
    it('rejects it without stream', () =>
      rejects(validate, { ...base, stream_options: { include_usage: true } }, 'stream_options', 'is only allowed when stream is true'));
    it('rejects it when stream is false', () =>
      rejects(validate, { ...base, stream: false, stream_options: {} }, 'stream_options', 'is only allowed when stream is true'));
    it('rejects it when stream is null', () =>
      rejects(validate, { ...base, stream: null, stream_options: {} }, 'stream_options', 'is only allowed when stream is true'));
    it('rejects a non-object', () =>
      rejects(validate, { ...base, stream: true, stream_options: 'usage' }, 'stream_options', 'must be an object or null'));
    it('rejects a non-boolean include_usage', () =>
      rejects(validate, { ...base, stream: true, stream_options: { include_usage: 'yes' } }, 'stream_options.include_usage', 'must be a boolean'));
  });
}

describe('inference body validators', () => {
  it('export their TypeBox schemas', () => {
    for (const mod of [chat, completions, embeddings, moderations]) {
      expect(mod.schema).to.be.an('object');
      expect(mod.schema.type).to.equal('object');
    }
  });

  describe('chat/completions (§4.1)', () => {
    const validate = chat.validate;
    const base: Body = { model: 'gpt-4o', messages: [{ role: 'user', content: 'Hi' }] };
    const tool = (i: number) => ({ type: 'function', function: { name: `fn_${i}`, parameters: { type: 'object' } } });
    const fn = (i: number) => ({ name: `fn_${i}`, parameters: { type: 'object' } });
    const withMessages = (...messages: unknown[]): Body => ({ ...base, messages });

    commonSuite(validate, base);
    for (const [field, cases] of Object.entries(sampling)) fieldSuite(validate, base, field, cases);
    streamOptionsSuite(validate, base);

    describe('messages', () => {
      it('are required', () => rejects(validate, { model: 'gpt-4o' }, 'messages', 'is required'));
      it('need at least 1 item', () => rejects(validate, withMessages(), 'messages', 'must have at least 1 item(s)'));
      it('must be an array', () => rejects(validate, { ...base, messages: 'Hi' }, 'messages', 'must be an array'));
      it('items must be objects', () => rejects(validate, withMessages('Hi'), 'messages.0', 'must be an object'));
      it('need a role', () => rejects(validate, withMessages({ content: 'Hi' }), 'messages.0.role', 'is required'));
      it('reject an unknown role', () =>
        rejects(validate, withMessages({ role: 'bot', content: 'Hi' }), 'messages.0.role',
          'must be one of "system", "developer", "user", "assistant", "tool", "function"'));
      it('name the index of the broken message', () =>
        rejects(validate, withMessages({ role: 'user', content: 'Hi' }, { role: 'user' }), 'messages.1.content', 'is required'));

      it('accept every role with its fields', () =>
        accepts(validate, withMessages(
          { role: 'system', content: 'Be brief.' },
          { role: 'developer', content: [{ type: 'text', text: 'No emoji.' }] },
          { role: 'user', content: 'Weather?', name: 'ann' },
          { role: 'assistant', content: null, tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'w', arguments: '{}' } }] },
          { role: 'tool', tool_call_id: 'call_1', content: '{"c":21}' },
          { role: 'assistant', content: null, function_call: { name: 'w', arguments: '{}' } },
          { role: 'function', name: 'w', content: null },
          { role: 'assistant', content: 'It is 21°C.' },
        )));

      it('accept unknown message fields', () =>
        accepts(validate, withMessages({ role: 'assistant', content: 'x', refusal: null, audio: null, extra: 1 })));

      describe('content', () => {
        it('accepts a string', () => accepts(validate, withMessages({ role: 'user', content: '' })));
        it('accepts content parts', () =>
          accepts(validate, withMessages({
            role: 'user',
            content: [
              { type: 'text', text: 'What is this?' },
              { type: 'image_url', image_url: { url: 'https://example.com/a.png', detail: 'low' } },
              { type: 'input_audio', input_audio: { data: 'AAAA', format: 'wav' } },
            ],
          })));
        it('accepts an empty parts array', () => accepts(validate, withMessages({ role: 'user', content: [] })));
        it('rejects a part without type', () =>
          rejects(validate, withMessages({ role: 'user', content: [{ type: 'text', text: 'a' }, { text: 'b' }] }), 'messages.0.content.1.type', 'is required'));
        it('rejects a part whose type is not a string', () =>
          rejects(validate, withMessages({ role: 'user', content: [{ type: 1 }] }), 'messages.0.content.0.type', 'must be a string'));
        it('rejects a part that is not an object', () =>
          rejects(validate, withMessages({ role: 'user', content: ['Hi'] }), 'messages.0.content.0', 'must be an object'));
        it('rejects a number', () =>
          rejects(validate, withMessages({ role: 'user', content: 42 }), 'messages.0.content', 'must be a string, an array of content parts or null'));
        it('rejects an object', () =>
          rejects(validate, withMessages({ role: 'user', content: { text: 'Hi' } }), 'messages.0.content', 'must be a string, an array of content parts or null'));

        for (const role of ['system', 'developer', 'user', 'tool']) {
          const extra = role === 'tool' ? { tool_call_id: 'call_1' } : {};
          it(`is required for ${role} messages`, () =>
            rejects(validate, withMessages({ role, ...extra }), 'messages.0.content', 'is required'));
          it(`may not be null for ${role} messages`, () =>
            rejects(validate, withMessages({ role, content: null, ...extra }), 'messages.0.content', 'must be a string or an array of content parts'));
        }
        it('may be null for assistant messages with tool_calls', () =>
          accepts(validate, withMessages({ role: 'assistant', content: null, tool_calls: [{ id: 'c', type: 'function' }] })));
        it('may be absent for assistant messages with tool_calls', () =>
          accepts(validate, withMessages({ role: 'assistant', tool_calls: [{ id: 'c', type: 'function' }] })));
        it('may be absent for assistant messages with function_call', () =>
          accepts(validate, withMessages({ role: 'assistant', function_call: { name: 'f' } })));
        it('is required for assistant messages without tool calls', () =>
          rejects(validate, withMessages({ role: 'assistant' }), 'messages.0.content', 'is required unless tool_calls or function_call is given'));
        it('may not be null for assistant messages with empty tool_calls', () =>
          rejects(validate, withMessages({ role: 'assistant', content: null, tool_calls: [] }), 'messages.0.content', 'is required unless tool_calls or function_call is given'));
        it('may not be null for assistant messages with a null function_call', () =>
          rejects(validate, withMessages({ role: 'assistant', content: null, function_call: null }), 'messages.0.content', 'is required unless tool_calls or function_call is given'));
        it('may be null for function messages (as OpenAI allows)', () =>
          accepts(validate, withMessages({ role: 'function', name: 'f', content: null })));
        it('is required for function messages', () =>
          rejects(validate, withMessages({ role: 'function', name: 'f' }), 'messages.0.content', 'is required'));
      });

      it('tool messages need tool_call_id', () =>
        rejects(validate, withMessages({ role: 'tool', content: 'x' }), 'messages.0.tool_call_id', 'is required'));
      it('tool_call_id must be a string', () =>
        rejects(validate, withMessages({ role: 'tool', content: 'x', tool_call_id: 1 }), 'messages.0.tool_call_id', 'must be a string'));
      it('function messages need a name', () =>
        rejects(validate, withMessages({ role: 'function', content: 'x' }), 'messages.0.name', 'is required'));
      it('name must be a string', () =>
        rejects(validate, withMessages({ role: 'user', content: 'x', name: 5 }), 'messages.0.name', 'must be a string'));
      it('tool_calls need an id', () =>
        rejects(validate, withMessages({ role: 'assistant', tool_calls: [{ type: 'function' }] }), 'messages.0.tool_calls.0.id', 'is required'));
      it('tool_calls must be an array', () =>
        rejects(validate, withMessages({ role: 'assistant', tool_calls: { id: 'c' } }), 'messages.0.tool_calls', 'must be an array'));
      it('function_call needs a name', () =>
        rejects(validate, withMessages({ role: 'assistant', function_call: { arguments: '{}' } }), 'messages.0.function_call.name', 'is required'));
    });

    fieldSuite(validate, base, 'logprobs', {
      valid: [true, false, null],
      invalid: [['yes', 'logprobs', 'must be a boolean or null']],
    });

    describe('top_logprobs with logprobs', () => {
      const withLogprobs = { ...base, logprobs: true };
      fieldSuite(validate, withLogprobs, 'top_logprobs', {
        valid: [0, 20, 5, null],
        invalid: [
          [-1, 'top_logprobs', 'must be >= 0'],
          [21, 'top_logprobs', 'must be <= 20'],
          [2.5, 'top_logprobs', 'must be an integer'],
          ['5', 'top_logprobs', 'must be an integer >= 0 and <= 20 or null'],
        ],
      });
      it('requires logprobs to be true', () => rejects(validate, { ...base, top_logprobs: 5 }, 'top_logprobs', 'requires logprobs to be true'));
      it('rejects logprobs false', () =>
        rejects(validate, { ...base, logprobs: false, top_logprobs: 0 }, 'top_logprobs', 'requires logprobs to be true'));
      it('accepts null without logprobs', () => accepts(validate, { ...base, top_logprobs: null }));
    });

    for (const field of ['max_tokens', 'max_completion_tokens']) {
      fieldSuite(validate, base, field, {
        valid: [1, 4096, null],
        invalid: [
          [0, field, 'must be >= 1'],
          [-5, field, 'must be >= 1'],
          [10.5, field, 'must be an integer'],
          ['100', field, 'must be an integer >= 1 or null'],
        ],
      });
    }

    fieldSuite(validate, base, 'response_format', {
      valid: [
        { type: 'text' },
        { type: 'json_object' },
        { type: 'json_schema', json_schema: { name: 'answer', strict: true, schema: { type: 'object' } } },
      ],
      invalid: [
        ['json', 'response_format', 'must be an object'],
        [null, 'response_format', 'must be an object'],
        [{}, 'response_format.type', 'is required'],
        [{ type: 1 }, 'response_format.type', 'must be a string'],
      ],
    });

    fieldSuite(validate, base, 'thinking', {
      valid: [{ type: 'enabled', budget_tokens: 2048 }, { type: 'disabled' }],
      invalid: [
        ['on', 'thinking', 'must be an object'],
        [{ budget_tokens: 2048 }, 'thinking.type', 'is required'],
        [{ type: true }, 'thinking.type', 'must be a string'],
        [{ type: 'enabled', budget_tokens: 20.5 }, 'thinking.budget_tokens', 'must be an integer'],
        [{ type: 'enabled', budget_tokens: '2048' }, 'thinking.budget_tokens', 'must be an integer'],
      ],
    });

    fieldSuite(validate, base, 'tools', {
      valid: [[], [tool(0)], times(128, tool), [{ type: 'function', function: { name: 'f', description: 'd', strict: null } }]],
      invalid: [
        [times(129, tool), 'tools', 'must have at most 128 item(s)'],
        [tool(0), 'tools', 'must be an array'],
        [[{ type: 'custom', function: { name: 'f' } }], 'tools.0.type', 'must be "function"'],
        [[{ type: 'function' }], 'tools.0.function', 'is required'],
        [[{ function: { name: 'f' } }], 'tools.0.type', 'is required'],
        [[tool(0), { type: 'function', function: {} }], 'tools.1.function.name', 'is required'],
        [[{ type: 'function', function: { name: 7 } }], 'tools.0.function.name', 'must be a string'],
        [[{ type: 'function', function: { name: 'f', parameters: 'x' } }], 'tools.0.function.parameters', 'must be an object'],
      ],
    });

    const toolChoiceRule = 'must be "none", "auto", "required" or {"type": "function", "function": {"name": ...}}';
    fieldSuite(validate, base, 'tool_choice', {
      valid: ['none', 'auto', 'required', { type: 'function', function: { name: 'get_weather' } }],
      invalid: [
        ['any', 'tool_choice', toolChoiceRule],
        [1, 'tool_choice', toolChoiceRule],
        [null, 'tool_choice', toolChoiceRule],
        [{ type: 'function' }, 'tool_choice.function', 'is required'],
        [{ type: 'function', function: {} }, 'tool_choice.function.name', 'is required'],
        [{ type: 'tool', function: { name: 'f' } }, 'tool_choice.type', 'must be "function"'],
      ],
    });

    fieldSuite(validate, base, 'parallel_tool_calls', {
      valid: [true, false],
      invalid: [
        ['true', 'parallel_tool_calls', 'must be a boolean'],
        [null, 'parallel_tool_calls', 'must be a boolean'],
      ],
    });

    const functionCallRule = 'must be "none", "auto" or {"name": ...}';
    fieldSuite(validate, base, 'function_call', {
      valid: ['none', 'auto', { name: 'get_weather' }],
      invalid: [
        ['required', 'function_call', functionCallRule],
        [null, 'function_call', functionCallRule],
        [{}, 'function_call.name', 'is required'],
        [{ name: 1 }, 'function_call.name', 'must be a string'],
      ],
    });

    fieldSuite(validate, base, 'functions', {
      valid: [[fn(0)], times(128, fn), [{ name: 'f' }]],
      invalid: [
        [[], 'functions', 'must have at least 1 item(s)'],
        [times(129, fn), 'functions', 'must have at most 128 item(s)'],
        [fn(0), 'functions', 'must be an array'],
        [[fn(0), {}], 'functions.1.name', 'is required'],
        [[{ name: 'f', description: 3 }], 'functions.0.description', 'must be a string'],
      ],
    });

    it('reports a schema issue before cross-field rules', () =>
      rejects(validate, { ...base, top_logprobs: 5, temperature: 3 }, 'temperature', 'must be <= 2'));

    it('accepts a realistic full OpenAI request', () => {
      const body = deepFreeze({
        model: 'gpt-4o-2024-08-06',
        messages: [
          { role: 'system', content: 'You are a helpful assistant.' },
          { role: 'user', content: [{ type: 'text', text: 'What is the weather in Paris?' }, { type: 'image_url', image_url: { url: 'data:image/png;base64,AAAA' } }] },
          { role: 'assistant', content: null, tool_calls: [{ id: 'call_abc', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } }] },
          { role: 'tool', tool_call_id: 'call_abc', content: '{"temp_c":21}' },
        ],
        frequency_penalty: 0.5,
        presence_penalty: -0.5,
        logit_bias: { '50256': -100, '1234': 10 },
        logprobs: true,
        top_logprobs: 3,
        max_completion_tokens: 1024,
        n: 1,
        response_format: { type: 'json_schema', json_schema: { name: 'weather', schema: { type: 'object', properties: { summary: { type: 'string' } } }, strict: true } },
        seed: 1234,
        stop: ['\n\n', 'END'],
        stream: true,
        stream_options: { include_usage: true },
        temperature: 0.2,
        top_p: 0.95,
        tools: [{ type: 'function', function: { name: 'get_weather', description: 'Weather for a city', parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] }, strict: true } }],
        tool_choice: 'auto',
        parallel_tool_calls: false,
        user: 'user-42',
        service_tier: 'default',
        store: false,
        metadata: { app: 'demo' },
        reasoning_effort: 'low',
      });
      accepts(validate, body);
    });

    it('accepts a request with the deprecated fields', () =>
      accepts(validate, { ...base, max_tokens: 256, functions: [fn(0)], function_call: { name: 'fn_0' } }));
  });

  describe('completions (§4.2)', () => {
    const validate = completions.validate;
    const base: Body = { model: 'gpt-3.5-turbo-instruct', prompt: 'Say this is a test' };

    commonSuite(validate, base);
    for (const [field, cases] of Object.entries(sampling)) fieldSuite(validate, base, field, cases);
    streamOptionsSuite(validate, base);

    it('accepts a body without prompt', () => accepts(validate, { model: 'davinci-002' }));
    const promptRule = 'must be a string, an array of strings, an array of token ids, an array of token id arrays or null';
    fieldSuite(validate, base, 'prompt', {
      valid: ['', 'Once upon a time', ['a', 'b'], [1, 2, 50256], [[1, 2], [3]], [], [[]], null],
      invalid: [
        [5, 'prompt', promptRule],
        [{ text: 'x' }, 'prompt', promptRule],
        [[true], 'prompt', promptRule],
        [['a', 1], 'prompt.1', 'must be a string'],
        [[1, 'a'], 'prompt.1', 'must be an integer'],
        [[1.5], 'prompt.0', 'must be an integer'],
        [[-1], 'prompt.0', 'must be >= 0'],
        [[[1], [2.5]], 'prompt.1.0', 'must be an integer'],
        [[[1], 2], 'prompt.1', 'must be an array'],
      ],
    });

    describe('best_of with n and stream', () => {
      fieldSuite(validate, base, 'best_of', {
        valid: [0, 20, 1, null],
        invalid: [
          [-1, 'best_of', 'must be >= 0'],
          [21, 'best_of', 'must be <= 20'],
          [2.5, 'best_of', 'must be an integer'],
          ['3', 'best_of', 'must be an integer >= 0 and <= 20 or null'],
        ],
      });
      it('accepts best_of greater than n', () => accepts(validate, { ...base, best_of: 3, n: 2 }));
      it('accepts best_of 20 with n 19', () => accepts(validate, { ...base, best_of: 20, n: 19 }));
      it('rejects best_of equal to n', () => rejects(validate, { ...base, best_of: 2, n: 2 }, 'best_of', 'must be greater than n'));
      it('rejects best_of below n', () => rejects(validate, { ...base, best_of: 1, n: 3 }, 'best_of', 'must be greater than n'));
      it('ignores n when best_of is null', () => accepts(validate, { ...base, best_of: null, n: 3 }));
      it('accepts best_of when n is null', () => accepts(validate, { ...base, best_of: 3, n: null }));
      it('rejects best_of > 1 with stream', () =>
        rejects(validate, { ...base, best_of: 2, stream: true }, 'best_of', 'must not be greater than 1 when stream is true'));
      it('accepts best_of 1 with stream', () => accepts(validate, { ...base, best_of: 1, stream: true }));
      it('accepts best_of > 1 with stream false', () => accepts(validate, { ...base, best_of: 5, stream: false }));
    });

    fieldSuite(validate, base, 'echo', {
      valid: [true, false, null],
      invalid: [[1, 'echo', 'must be a boolean or null']],
    });

    fieldSuite(validate, base, 'logprobs', {
      valid: [0, 5, 2, null],
      invalid: [
        [-1, 'logprobs', 'must be >= 0'],
        [6, 'logprobs', 'must be <= 5'],
        [1.5, 'logprobs', 'must be an integer'],
        [true, 'logprobs', 'must be an integer >= 0 and <= 5 or null'],
      ],
    });

    fieldSuite(validate, base, 'max_tokens', {
      valid: [0, 16, 4096, null],
      invalid: [
        [-1, 'max_tokens', 'must be >= 0'],
        [16.5, 'max_tokens', 'must be an integer'],
        ['16', 'max_tokens', 'must be an integer >= 0 or null'],
      ],
    });

    fieldSuite(validate, base, 'suffix', {
      valid: ['\n}', '', null],
      invalid: [[1, 'suffix', 'must be a string or null']],
    });

    it('accepts a realistic full OpenAI request', () => {
      const body = deepFreeze({
        model: 'gpt-3.5-turbo-instruct',
        prompt: ['def fib(n):', 'def add(a, b):'],
        suffix: null,
        max_tokens: 128,
        temperature: 0,
        top_p: 1,
        n: 2,
        best_of: 4,
        stream: false,
        logprobs: 3,
        echo: false,
        stop: ['\n\n'],
        presence_penalty: 0,
        frequency_penalty: 0.2,
        logit_bias: { '50256': -100 },
        seed: 7,
        user: 'user-42',
        stream_options: null,
      });
      accepts(validate, body);
    });
  });

  describe('embeddings', () => {
    const validate = embeddings.validate;
    const base: Body = { model: 'text-embedding-3-small', input: 'The food was delicious.' };
    const inputRule = 'must be a string, an array of strings, an array of token ids or an array of token id arrays';

    commonSuite(validate, base);

    it('requires input', () => rejects(validate, { model: 'text-embedding-3-small' }, 'input', 'is required'));
    fieldSuite(validate, base, 'input', {
      valid: ['', 'text', ['a'], ['a', 'b'], [0], [1, 2, 3], [[1]], [[1, 2], [3]]],
      invalid: [
        [[], 'input', 'must have at least 1 item(s)'],
        [[[]], 'input.0', 'must have at least 1 item(s)'],
        [[[1], []], 'input.1', 'must have at least 1 item(s)'],
        [null, 'input', inputRule],
        [5, 'input', inputRule],
        [[true], 'input', inputRule],
        [['a', 1], 'input.1', 'must be a string'],
        [[1, 'a'], 'input.1', 'must be an integer'],
        [[-1], 'input.0', 'must be >= 0'],
        [[[1.5]], 'input.0.0', 'must be an integer'],
      ],
    });

    fieldSuite(validate, base, 'encoding_format', {
      valid: ['float', 'base64'],
      invalid: [
        ['int8', 'encoding_format', 'must be one of "float", "base64"'],
        [null, 'encoding_format', 'must be one of "float", "base64"'],
      ],
    });

    fieldSuite(validate, base, 'dimensions', {
      valid: [1, 256, 3072],
      invalid: [
        [0, 'dimensions', 'must be >= 1'],
        [256.5, 'dimensions', 'must be an integer'],
        ['256', 'dimensions', 'must be an integer'],
        [null, 'dimensions', 'must be an integer'],
      ],
    });

    fieldSuite(validate, base, 'user', sampling.user!);

    it('accepts a realistic full OpenAI request', () =>
      accepts(validate, deepFreeze({
        model: 'text-embedding-3-large',
        input: ['The food was delicious.', 'The waiter was friendly.'],
        encoding_format: 'float',
        dimensions: 1024,
        user: 'user-42',
      })));
  });

  describe('moderations (§4.3)', () => {
    const validate = moderations.validate;
    const base: Body = { input: 'I want to hurt them.' };
    const inputRule = 'must be a string, an array of strings or an array of input objects';

    commonSuite(validate, base, false);

    it('requires input', () => rejects(validate, { model: 'text-moderation-latest' }, 'input', 'is required'));
    it('accepts a body without model', () => accepts(validate, { input: 'hello' }));
    it('accepts the moderation models', () => {
      for (const model of ['text-moderation-stable', 'text-moderation-latest', 'omni-moderation-latest']) accepts(validate, { ...base, model });
    });

    fieldSuite(validate, base, 'input', {
      valid: [
        '',
        'text',
        ['a'],
        ['a', 'b'],
        [{ type: 'text', text: 'hello' }],
        [{ type: 'text', text: 'look' }, { type: 'image_url', image_url: { url: 'https://example.com/a.png' } }],
      ],
      invalid: [
        [[], 'input', 'must have at least 1 item(s)'],
        [null, 'input', inputRule],
        [5, 'input', inputRule],
        [{ type: 'text' }, 'input', inputRule],
        [[1], 'input', inputRule],
        [['a', 1], 'input.1', 'must be a string'],
        [[{ text: 'x' }], 'input.0.type', 'is required'],
        [[{ type: 'text' }, 'b'], 'input.1', 'must be an object'],
      ],
    });

    it('does not apply the default model to the body', () => {
      const body = { input: 'hello' };
      accepts(validate, body);
      expect(body).to.deep.equal({ input: 'hello' });
    });

    it('accepts a realistic full OpenAI request', () =>
      accepts(validate, deepFreeze({
        model: 'omni-moderation-latest',
        input: [
          { type: 'text', text: '...text to classify goes here...' },
          { type: 'image_url', image_url: { url: 'https://example.com/image.png' } },
        ],
      })));
  });

  describe('issue lists', () => {
    it('list every broken field, each explained', () => {
      const issues = chat.validate({ model: '', messages: [], temperature: 5, stop: [1] });
      expect(issues).to.deep.equal([
        { path: 'model', rule: 'must be at least 1 character(s)' },
        { path: 'messages', rule: 'must have at least 1 item(s)' },
        { path: 'stop.0', rule: 'must be a string' },
        { path: 'temperature', rule: 'must be <= 2' },
      ]);
    });
    it('are fresh arrays for valid bodies', () => {
      const body = { model: 'm', input: 'x' };
      const a = embeddings.validate(body);
      a.push({ path: 'x', rule: 'y' });
      expect(embeddings.validate(body)).to.deep.equal([]);
    });
  });
});
