/**
 * What A2A calls and answers name (task-refs.ts) in both protocol versions and both spellings the
 * SDK reads, and the SSE reader (sse-events.ts) that finds events in a relayed stream's chunks
 * however the chunks fall.
 */
import { expect } from 'chai';
import { answerNames, requestNames } from '../../../../plugins/agents/agent-servers/task-refs.js';
import { MAX_EVENT_CHARS, SseEvents } from '../../../../plugins/agents/agent-servers/sse-events.js';

describe('agents.agent-servers: the tasks a call or an answer names', () => {
  it('task calls name params.id in both versions; an absent id is named as ""', () => {
    for (const method of ['tasks/get', 'tasks/cancel', 'tasks/resubscribe', 'GetTask', 'CancelTask', 'SubscribeToTask']) {
      expect(requestNames(method, { id: 't1' })).to.deep.equal({ tasks: ['t1'], contexts: [] });
      expect(requestNames(method, {}).tasks).to.deep.equal(['']);
      expect(requestNames(method, undefined).tasks).to.deep.equal(['']);
    }
    expect(requestNames('GetTask', { id: 42 }).tasks, 'the SDK turns any set value into a string').to.deep.equal(['42']);
  });

  it('messages name taskId, referenceTaskIds and contextId, camelCase and snake_case', () => {
    const named = requestNames('SendMessage', {
      message: { taskId: 't1', task_id: 't2', referenceTaskIds: ['r1', 't1'], reference_task_ids: ['r2'], contextId: 'c1', context_id: 'c2' },
    });
    expect(named).to.deep.equal({ tasks: ['t1', 't2', 'r1', 'r2'], contexts: ['c1', 'c2'] });
    expect(requestNames('message/stream', { message: { kind: 'message', taskId: '', contextId: '' } }), '"" is unset').to.deep.equal({ tasks: [], contexts: [] });
    expect(requestNames('message/send', { message: 'x' })).to.deep.equal({ tasks: [], contexts: [] });
  });

  it('answers: v1.0 wrappers, a bare v1.0 Task, v0.3 kinds', () => {
    expect(answerNames({ task: { id: 't1', contextId: 'c1', status: {} } })).to.deep.equal({ tasks: ['t1'], contexts: ['c1'] });
    expect(answerNames({ message: { messageId: 'm', taskId: 't2', contextId: 'c2' } })).to.deep.equal({ tasks: ['t2'], contexts: ['c2'] });
    expect(answerNames({ statusUpdate: { taskId: 't3', contextId: 'c3', status: {} } })).to.deep.equal({ tasks: ['t3'], contexts: ['c3'] });
    expect(answerNames({ artifact_update: { task_id: 't4', context_id: 'c4' } })).to.deep.equal({ tasks: ['t4'], contexts: ['c4'] });
    expect(answerNames({ id: 't5', contextId: 'c5', status: { state: 'TASK_STATE_COMPLETED' } }), 'GetTask').to.deep.equal({ tasks: ['t5'], contexts: ['c5'] });
    expect(answerNames({ kind: 'task', id: 't6', contextId: 'c6' })).to.deep.equal({ tasks: ['t6'], contexts: ['c6'] });
    expect(answerNames({ kind: 'status-update', taskId: 't7', contextId: 'c7', status: {} })).to.deep.equal({ tasks: ['t7'], contexts: ['c7'] });
    expect(answerNames({ kind: 'message', messageId: 'm', contextId: 'c8' })).to.deep.equal({ tasks: [], contexts: ['c8'] });
    expect(answerNames({ kind: 'message', id: 'not-a-task' }).tasks, 'only a task\'s own id is a task id').to.deep.equal([]);
    expect(answerNames('nothing')).to.deep.equal({ tasks: [], contexts: [] });
  });
});

describe('agents.agent-servers: server-sent events in relayed chunks', () => {
  const bytes = (s: string) => new TextEncoder().encode(s);

  it('finds every event whatever the chunk boundaries (one byte at a time, \\r\\n line ends, multi-byte text)', () => {
    const stream = 'event: message\r\ndata: {"a":"é"}\r\n\r\ndata: {"b":\ndata: 2}\n\n: comment\n\nid: 3\ndata: last\n\n';
    const whole = new SseEvents().push(bytes(stream));
    expect(whole).to.deep.equal(['{"a":"é"}', '{"b":\n2}', 'last']);
    const reader = new SseEvents();
    const seen: string[] = [];
    for (const b of bytes(stream)) seen.push(...reader.push(Uint8Array.of(b)));
    expect(seen).to.deep.equal(whole);
  });

  it('an event only counts once its blank line has arrived', () => {
    const reader = new SseEvents();
    expect(reader.push(bytes('data: {"x":1}\n'))).to.deep.equal([]);
    expect(reader.push(bytes('\n'))).to.deep.equal(['{"x":1}']);
  });

  it('skips an over-long event without keeping it, and reads the next one', () => {
    const reader = new SseEvents();
    const big = 'x'.repeat(64 * 1024);
    let found: string[] = [];
    found = found.concat(reader.push(bytes('data: ')));
    for (let sent = 0; sent <= MAX_EVENT_CHARS; sent += big.length) found = found.concat(reader.push(bytes(big)));
    found = found.concat(reader.push(bytes('\n')), reader.push(bytes('\ndata: after\n\n')));
    expect(found).to.deep.equal(['after']);
  });
});
