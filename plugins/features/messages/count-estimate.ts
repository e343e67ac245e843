/**
 * count_tokens for providers that cannot count: an estimate of the input tokens, 4 characters a
 * token (the rule of thumb the gateway's limits use for streams without usage) over every text the
 * model reads — system, message texts, tool_result texts, thinking, tool_use inputs and tool
 * definitions as JSON — plus a fixed 1,600 tokens per image or document (Anthropic's documented
 * cost of an image of about 1.15 megapixels, the largest that is not scaled down) and a few tokens
 * of framing per message. It errs high rather than low: it is for budgeting, not billing.
 */
type Obj = Record<string, unknown>;

const CHARS_PER_TOKEN = 4;
const TOKENS_PER_IMAGE = 1600;
const TOKENS_PER_MESSAGE = 4;

export function estimateInputTokens(body: Obj): number {
  let chars = 0;
  let fixed = 0;
  const add = (value: unknown): void => {
    if (typeof value === 'string') chars += value.length;
    else if (value !== undefined) chars += JSON.stringify(value).length;
  };
  const blocks = (content: unknown): void => {
    if (typeof content === 'string') return add(content);
    if (!Array.isArray(content)) return;
    for (const b of content as Obj[]) {
      switch (b?.['type']) {
        case 'text': add(b['text']); break;
        case 'thinking': add(b['thinking']); break;
        case 'tool_use': add(b['name']); add(b['input']); break;
        case 'tool_result': blocks(b['content']); break;
        case 'image':
        case 'document': fixed += TOKENS_PER_IMAGE; break;
        default: add(b);
      }
    }
  };
  const system = body['system'];
  if (typeof system === 'string') add(system);
  else blocks(system);
  const messages = Array.isArray(body['messages']) ? (body['messages'] as Obj[]) : [];
  for (const m of messages) {
    fixed += TOKENS_PER_MESSAGE;
    blocks(m?.['content']);
  }
  if (Array.isArray(body['tools'])) add(body['tools']);
  return Math.ceil(chars / CHARS_PER_TOKEN) + fixed;
}
