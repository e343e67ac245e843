/**
 * The text checks see, and how a transformed text goes back. A request's text is its message texts
 * (a Messages body's `system` first, string contents, `text` parts, a Messages tool_result's text;
 * or `prompt`; or `input`) joined with "\n"; an answer's is its choices' `message.content` (or
 * `text`), or a Message's text blocks, joined with "\n". Each piece is a slot with a path.
 *
 * Write-back is copy-on-write (the original body may be shared: the client's body, a cached
 * answer). A transformed text is split back line by line over the slots it was joined from; when
 * a transformation changed the number of lines, the whole text goes into the last slot and the
 * others are emptied, so nothing the check removed can survive in another slot.
 */

export interface TextSlot {
  readonly path: readonly (string | number)[];
  readonly text: string;
  /** Lines of `text` (its "\n" count + 1). */
  readonly lines: number;
}

export interface SlottedText {
  readonly text: string;
  readonly slots: readonly TextSlot[];
}

type Obj = Record<string, unknown>;

const EMPTY: SlottedText = Object.freeze({ text: '', slots: Object.freeze([]) as readonly TextSlot[] });

/** Texts of a unified request body (chat, completions, embeddings, moderations). */
export function requestText(body: Obj): SlottedText {
  const slots: TextSlot[] = [];
  const messages = body['messages'];
  if (Array.isArray(messages)) {
    // A Messages API body keeps its system prompt beside the messages: read first, as chat's system message is.
    const system = body['system'];
    if (typeof system === 'string') slots.push(slot(['system'], system));
    else if (Array.isArray(system)) textParts(system, ['system'], slots);
    for (let i = 0; i < messages.length; i++) {
      const content = (messages[i] as Obj | null)?.['content'];
      if (typeof content === 'string') slots.push(slot(['messages', i, 'content'], content));
      else if (Array.isArray(content)) textParts(content, ['messages', i, 'content'], slots);
    }
  } else {
    stringsAt(body, 'prompt', slots) || stringsAt(body, 'input', slots);
  }
  return slots.length === 0 ? EMPTY : join(slots);
}

/** Texts of a unified answer (chat or text completion), or of a Messages API Message (its text blocks). */
export function answerText(value: unknown): SlottedText {
  const choices = (value as Obj | null)?.['choices'];
  if (!Array.isArray(choices)) return messageText(value);
  const slots: TextSlot[] = [];
  for (let i = 0; i < choices.length; i++) {
    const choice = choices[i] as Obj | null;
    const content = (choice?.['message'] as Obj | undefined)?.['content'];
    if (typeof content === 'string') slots.push(slot(['choices', i, 'message', 'content'], content));
    else if (typeof choice?.['text'] === 'string') slots.push(slot(['choices', i, 'text'], choice['text']));
  }
  return slots.length === 0 ? EMPTY : join(slots);
}

/** Text parts (chat) or text blocks (Messages) of a content array; a Messages tool_result's text too. */
function textParts(content: unknown[], path: (string | number)[], slots: TextSlot[]): void {
  for (let j = 0; j < content.length; j++) {
    const part = content[j] as Obj | null;
    if (part?.['type'] === 'text' && typeof part['text'] === 'string') slots.push(slot([...path, j, 'text'], part['text']));
    else if (part?.['type'] === 'tool_result') {
      const inner = part['content'];
      if (typeof inner === 'string') slots.push(slot([...path, j, 'content'], inner));
      else if (Array.isArray(inner)) textParts(inner, [...path, j, 'content'], slots);
    }
  }
}

/** A Message (`type: "message"`, the Messages API's answer): its text blocks, in order. */
function messageText(value: unknown): SlottedText {
  const message = value as Obj | null;
  const content = message?.['content'];
  if (message?.['type'] !== 'message' || !Array.isArray(content)) return EMPTY;
  const slots: TextSlot[] = [];
  for (let i = 0; i < content.length; i++) {
    const block = content[i] as Obj | null;
    if (block?.['type'] === 'text' && typeof block['text'] === 'string') slots.push(slot(['content', i, 'text'], block['text']));
  }
  return slots.length === 0 ? EMPTY : join(slots);
}

/** `root` with the slots set to the pieces of `text`; untouched containers are shared. */
export function withText<T extends Obj>(root: T, slotted: SlottedText, text: string): T {
  const pieces = splitBack(slotted.slots, text);
  const copies = new Set<unknown>();
  const out = { ...root } as Obj;
  copies.add(out);
  for (let s = 0; s < slotted.slots.length; s++) {
    const { path, text: old } = slotted.slots[s]!;
    if (pieces[s] === old) continue;
    let parent = out as Record<string | number, unknown>;
    for (let k = 0; k < path.length - 1; k++) {
      let child = parent[path[k]!] as Record<string | number, unknown>;
      if (!copies.has(child)) {
        child = (Array.isArray(child) ? child.slice() : { ...child }) as Record<string | number, unknown>;
        copies.add(child);
        parent[path[k]!] = child;
      }
      parent = child;
    }
    parent[path[path.length - 1]!] = pieces[s];
  }
  return out as T;
}

function splitBack(slots: readonly TextSlot[], text: string): string[] {
  if (slots.length === 1) return [text];
  const lines = text.split('\n');
  let total = 0;
  for (const s of slots) total += s.lines;
  const pieces: string[] = [];
  if (lines.length !== total) {
    for (let s = 0; s < slots.length - 1; s++) pieces.push('');
    pieces.push(text);
    return pieces;
  }
  let at = 0;
  for (const s of slots) {
    pieces.push(lines.slice(at, at + s.lines).join('\n'));
    at += s.lines;
  }
  return pieces;
}

function stringsAt(body: Obj, key: string, slots: TextSlot[]): boolean {
  const value = body[key];
  if (typeof value === 'string') slots.push(slot([key], value));
  else if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) if (typeof value[i] === 'string') slots.push(slot([key, i], value[i] as string));
  } else return false;
  return true;
}

function slot(path: (string | number)[], text: string): TextSlot {
  let lines = 1;
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) lines++;
  return { path, text, lines };
}

function join(slots: TextSlot[]): SlottedText {
  if (slots.length === 1) return { text: slots[0]!.text, slots };
  let text = slots[0]!.text;
  for (let i = 1; i < slots.length; i++) text += '\n' + slots[i]!.text;
  return { text, slots };
}
