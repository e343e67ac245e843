import { useState } from 'preact/hooks';

/** The sign-in form: a gateway API key (kept for this tab only). */
export function SignInForm(props: { error?: string; onKey(key: string): void }) {
  const [key, setKey] = useState('');
  const submit = (e: Event) => {
    e.preventDefault();
    if (key.trim()) props.onKey(key.trim());
  };
  return (
    <main class="sign-in">
      <h1>gw console</h1>
      <form onSubmit={submit}>
        <label for="api-key">Gateway API key</label>
        <input id="api-key" type="password" autocomplete="off" value={key} onInput={(e) => setKey(e.currentTarget.value)} required />
        <button type="submit">Sign in</button>
        {props.error && <p role="alert" class="error">{props.error}</p>}
      </form>
      <p class="hint">The key is kept for this tab only and sent to this gateway alone.</p>
    </main>
  );
}
