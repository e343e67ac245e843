/** Body of POST /chat/completions (spec §4.1, limits §8). Unknown fields pass on to providers. */
import { Nullable, StringEnum, Type, type Issue, type Static } from '../../../../core/schema.js';
import {
  compileBody, LogitBias, Model, N, Penalty, Seed, Stop, Stream, StreamOptions, streamOptionsIssue, Temperature, TopP, User,
} from './common.js';

const ContentPart = Type.Object({ type: Type.String() });

// Null is only right for some messages; which ones is checked in `messageIssue`.
const Content = Type.Union([Type.String(), Type.Array(ContentPart), Type.Null()], {
  errorMessage: 'must be a string, an array of content parts or null',
});

const Message = Type.Object({
  role: StringEnum(['system', 'developer', 'user', 'assistant', 'tool', 'function']),
  content: Type.Optional(Content),
  name: Type.Optional(Type.String()),
  tool_call_id: Type.Optional(Type.String()),
  tool_calls: Type.Optional(Type.Array(Type.Object({ id: Type.String(), type: Type.String() }))),
  function_call: Type.Optional(Nullable(Type.Object({ name: Type.String(), arguments: Type.Optional(Type.String()) }))),
});

const FunctionDefinition = Type.Object({
  name: Type.String(),
  description: Type.Optional(Type.String()),
  parameters: Type.Optional(Type.Object({})),
});

const Tool = Type.Object({
  type: Type.Literal('function'),
  function: Type.Object({ ...FunctionDefinition.properties, strict: Type.Optional(Nullable(Type.Boolean())) }),
});

const ToolChoice = Type.Union(
  [
    StringEnum(['none', 'auto', 'required']),
    Type.Object({ type: Type.Literal('function'), function: Type.Object({ name: Type.String() }) }),
  ],
  { errorMessage: 'must be "none", "auto", "required" or {"type": "function", "function": {"name": ...}}' },
);

const FunctionCall = Type.Union([StringEnum(['none', 'auto']), Type.Object({ name: Type.String() })], {
  errorMessage: 'must be "none", "auto" or {"name": ...}',
});

export const schema = Type.Object({
  model: Model,
  messages: Type.Array(Message, { minItems: 1 }),
  frequency_penalty: Type.Optional(Penalty),
  presence_penalty: Type.Optional(Penalty),
  logit_bias: Type.Optional(LogitBias),
  logprobs: Type.Optional(Nullable(Type.Boolean())),
  top_logprobs: Type.Optional(Nullable(Type.Integer({ minimum: 0, maximum: 20 }))),
  max_tokens: Type.Optional(Nullable(Type.Integer({ minimum: 1 }))),
  max_completion_tokens: Type.Optional(Nullable(Type.Integer({ minimum: 1 }))),
  n: Type.Optional(N),
  response_format: Type.Optional(Type.Object({ type: Type.String() })),
  seed: Type.Optional(Seed),
  stop: Type.Optional(Stop),
  stream: Type.Optional(Stream),
  stream_options: Type.Optional(StreamOptions),
  thinking: Type.Optional(Type.Object({ type: Type.String(), budget_tokens: Type.Optional(Type.Integer()) })),
  temperature: Type.Optional(Temperature),
  top_p: Type.Optional(TopP),
  tools: Type.Optional(Type.Array(Tool, { maxItems: 128 })),
  tool_choice: Type.Optional(ToolChoice),
  parallel_tool_calls: Type.Optional(Type.Boolean()),
  user: Type.Optional(User),
  function_call: Type.Optional(FunctionCall),
  functions: Type.Optional(Type.Array(FunctionDefinition, { minItems: 1, maxItems: 128 })),
});

export type ChatBody = Static<typeof schema>;
type ChatMessage = Static<typeof Message>;

const validator = compileBody(schema);

export function validate(body: unknown): Issue[] {
  if (!validator.check(body)) return validator.issues(body);
  const chat = body as ChatBody;
  const issue = messagesIssue(chat.messages) ?? topLogprobsIssue(chat) ?? streamOptionsIssue(chat);
  return issue ? [issue] : [];
}

function messagesIssue(messages: ChatMessage[]): Issue | undefined {
  for (let i = 0; i < messages.length; i++) {
    const issue = messageIssue(messages[i]!, i);
    if (issue) return issue;
  }
  return undefined;
}

/** Role-dependent rules: which messages may lack content, and the ids tool and function results need. */
function messageIssue(message: ChatMessage, i: number): Issue | undefined {
  const { role, content } = message;
  if (content == null) {
    if (role === 'assistant') {
      // An assistant turn that only calls tools carries no text.
      if (!message.tool_calls?.length && message.function_call == null) {
        return { path: `messages.${i}.content`, rule: 'is required unless tool_calls or function_call is given' };
      }
    } else if (content === undefined) {
      return { path: `messages.${i}.content`, rule: 'is required' };
    } else if (role !== 'function') {
      // OpenAI lets a (deprecated) function result be null, nothing else.
      return { path: `messages.${i}.content`, rule: 'must be a string or an array of content parts' };
    }
  }
  if (role === 'tool' && message.tool_call_id === undefined) return { path: `messages.${i}.tool_call_id`, rule: 'is required' };
  if (role === 'function' && message.name === undefined) return { path: `messages.${i}.name`, rule: 'is required' };
  return undefined;
}

function topLogprobsIssue(chat: ChatBody): Issue | undefined {
  if (chat.top_logprobs != null && chat.logprobs !== true) return { path: 'top_logprobs', rule: 'requires logprobs to be true' };
  return undefined;
}
