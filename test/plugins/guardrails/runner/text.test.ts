/** The text checks see, and how transformed text is written back (copy-on-write, line mapping). */
import { expect } from 'chai';
import { deepFreeze } from '../../../../core/index.js';
import { answerText, requestText, withText } from '../../../../plugins/guardrails/runner/text.js';

describe('guardrails.runner: text slots', () => {
  const chatBody = deepFreeze({
    model: 'm',
    messages: [
      { role: 'system', content: 'be brief\nalways' },
      { role: 'user', content: [{ type: 'text', text: 'look' }, { type: 'image_url', image_url: { url: 'u' } }] },
      { role: 'assistant', content: null, tool_calls: [] },
      { role: 'user', content: 'secret plan' },
    ],
  });

  it('joins message texts and text parts with newlines; skips non-text content', () => {
    const t = requestText(chatBody);
    expect(t.text).to.equal('be brief\nalways\nlook\nsecret plan');
    expect(t.slots.map((s) => s.path)).to.deep.equal([['messages', 0, 'content'], ['messages', 1, 'content', 0, 'text'], ['messages', 3, 'content']]);
  });

  it('writes a transformed text back line by line, copying only what changes (frozen input untouched)', () => {
    const t = requestText(chatBody);
    const out = withText(chatBody, t, 'be brief\nalways\nlook\n[x] plan');
    expect((out.messages as any)[3].content).to.equal('[x] plan');
    expect(chatBody.messages[3]!.content).to.equal('secret plan');
    // Unchanged messages are shared, changed ones copied.
    expect((out.messages as unknown[])[0]).to.equal(chatBody.messages[0]);
    expect((out.messages as unknown[])[3]).to.not.equal(chatBody.messages[3]);
    expect(out.messages).to.not.equal(chatBody.messages);
  });

  it('puts the whole text into the last slot (emptying the others) when the line count changed', () => {
    const t = requestText(chatBody);
    const out = withText(chatBody, t, 'everything redacted');
    const messages = out.messages as any[];
    expect(messages[0].content).to.equal('');
    expect(messages[1].content[0].text).to.equal('');
    expect(messages[3].content).to.equal('everything redacted');
  });

  it('reads completions prompts and embedding inputs (string or list)', () => {
    expect(requestText({ prompt: 'a' }).text).to.equal('a');
    expect(requestText({ prompt: ['a', 'b'] }).text).to.equal('a\nb');
    expect(requestText({ input: ['x', 'y'] }).text).to.equal('x\ny');
    expect(requestText({ model: 'm' }).text).to.equal('');
    const out = withText({ prompt: ['a', 'b'] }, requestText({ prompt: ['a', 'b'] }), 'A\nb');
    expect(out.prompt).to.deep.equal(['A', 'b']);
  });

  it('reads every choice of an answer (chat content or completion text)', () => {
    const answer = deepFreeze({ choices: [{ index: 0, message: { role: 'assistant', content: 'one' } }, { index: 1, message: { role: 'assistant', content: 'two' } }] });
    const t = answerText(answer);
    expect(t.text).to.equal('one\ntwo');
    const out = withText(answer, t, 'ONE\ntwo');
    expect(out.choices[0]!.message.content).to.equal('ONE');
    expect(out.choices[1]).to.equal(answer.choices[1]);
    expect(answerText({ choices: [{ text: 'done' }] }).text).to.equal('done');
    expect(answerText({ error: {} }).text).to.equal('');
  });
});
