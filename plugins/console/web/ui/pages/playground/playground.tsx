/**
 * The playground: a config, a message, Send; the answer streams in, then the gateway's response
 * headers (route, retries, cache status, trace id) and `hook_results` are shown.
 */
import { useMemo, useRef, useState } from 'preact/hooks';
import type { ApiError } from '../../api';
import { useConsole } from '../../context';
import { Field, fieldId } from '../../parts/field';
import { ErrorNote, JsonBlock } from '../../parts/notes';
import { send, type PlaygroundAnswer } from './send';

export function Playground() {
  const { api } = useConsole();
  const ids = useMemo(() => ({ config: fieldId(), model: fieldId(), message: fieldId(), stream: fieldId() }), []);
  const [config, setConfig] = useState('');
  const [model, setModel] = useState('gpt-4o-mini');
  const [message, setMessage] = useState('');
  const [stream, setStream] = useState(true);
  const [text, setText] = useState('');
  const [answer, setAnswer] = useState<PlaygroundAnswer | undefined>();
  const [error, setError] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);
  const running = useRef<AbortController | undefined>(undefined);

  const submit = async (e: Event) => {
    e.preventDefault();
    running.current?.abort();
    const controller = new AbortController();
    running.current = controller;
    setBusy(true);
    setText('');
    setAnswer(undefined);
    setError(undefined);
    try {
      setAnswer(await send(api, { config, model, message, stream }, (more) => setText((t) => t + more), controller.signal));
    } catch (err) {
      if ((err as Error).name !== 'AbortError') {
        setError((err as Error).message);
        setAnswer((err as ApiError & { answer?: PlaygroundAnswer }).answer);
      }
    } finally {
      if (running.current === controller) setBusy(false);
    }
  };

  return (
    <section aria-labelledby="playground-title">
      <h1 id="playground-title">Playground</h1>
      <form class="panel" onSubmit={submit}>
        <Field id={ids.config} label="Config" hint="A config object as JSON, or a stored config's id or slug.">
          <textarea id={ids.config} rows={6} value={config} onInput={(e) => setConfig(e.currentTarget.value)} spellcheck={false} />
        </Field>
        <Field id={ids.model} label="Model">
          <input id={ids.model} value={model} onInput={(e) => setModel(e.currentTarget.value)} />
        </Field>
        <Field id={ids.message} label="Message">
          <textarea id={ids.message} rows={3} value={message} onInput={(e) => setMessage(e.currentTarget.value)} required />
        </Field>
        <p>
          <input id={ids.stream} type="checkbox" checked={stream} onChange={(e) => setStream(e.currentTarget.checked)} />{' '}
          <label for={ids.stream} class="inline">Stream the answer</label>
        </p>
        <button type="submit" disabled={busy}>Send</button>
        {busy && <button type="button" class="secondary" onClick={() => running.current?.abort()}>Stop</button>}
      </form>
      <ErrorNote error={error} />
      <h2>Answer</h2>
      <output class="answer" aria-live="polite" aria-label="Answer">{text}</output>
      {answer && <AnswerFacts answer={answer} />}
    </section>
  );
}

function AnswerFacts(props: { answer: PlaygroundAnswer }) {
  const { answer } = props;
  return (
    <>
      <h2>Response headers</h2>
      <table aria-label="Response headers">
        <thead><tr><th scope="col">Header</th><th scope="col">Value</th></tr></thead>
        <tbody>
          <tr><td>status</td><td>{answer.status}</td></tr>
          {answer.headers.map(([name, value]) => <tr key={name}><td>{name}</td><td>{value}</td></tr>)}
        </tbody>
      </table>
      {answer.usage !== undefined && <><h2>Usage</h2><JsonBlock label="Usage" value={answer.usage} /></>}
      <h2>Hook results</h2>
      {answer.hookResults ? <JsonBlock label="Hook results" value={answer.hookResults} /> : <p class="muted">No hooks ran.</p>}
    </>
  );
}
