import { useEffect, useState } from 'preact/hooks';
import { errorOf, parseJsonText } from './api';
import { ssoLoginUrl, ssoOffered } from './session';

/** The sign-in form: a gateway API key (kept for this tab only), and SSO when the gateway offers it. */
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
      <SsoForm />
    </main>
  );
}

/**
 * SSO: the login route is asked first without following its redirect, so a refusal (unknown
 * domain, no provider) is shown here with the gateway's message; on a redirect the browser goes.
 */
function SsoForm() {
  const [offered, setOffered] = useState(false);
  const [email, setEmail] = useState('');
  const [error, setError] = useState<string>();
  useEffect(() => void ssoOffered().then(setOffered), []);
  if (!offered) return null;
  const submit = async (e: Event) => {
    e.preventDefault();
    setError(undefined);
    const url = ssoLoginUrl(email.trim());
    try {
      const res = await fetch(url, { redirect: 'manual', credentials: 'same-origin', cache: 'no-store' });
      if (res.type === 'opaqueredirect') {
        window.location.assign(url);
        return;
      }
      const text = await res.text();
      setError(errorOf(res.status, parseJsonText(text), text).message);
    } catch (err) {
      setError((err as Error).message);
    }
  };
  return (
    <form class="sso" onSubmit={(e) => void submit(e)} aria-label="Single sign-on">
      <label for="sso-email">Email</label>
      <input id="sso-email" type="email" autocomplete="email" value={email} onInput={(e) => setEmail(e.currentTarget.value)} required />
      <button type="submit">Sign in with SSO</button>
      {error && <p role="alert" class="error">{error}</p>}
    </form>
  );
}
