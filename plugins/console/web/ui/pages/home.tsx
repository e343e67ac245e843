import { useConsole } from '../context';

/** Who is signed in and with which rights. */
export function Home() {
  const { me } = useConsole();
  return (
    <section aria-labelledby="home-title">
      <h1 id="home-title">gw console</h1>
      <dl class="facts">
        <dt>Signed in with</dt><dd>{me.sign_in === 'sso' ? 'single sign-on' : 'a gateway API key'}</dd>
        <dt>Caller</dt><dd>{me.type}{me.role ? ` (${me.role})` : ''}</dd>
        {me.workspace_id && <><dt>Workspace</dt><dd>{me.workspace_id}</dd></>}
        <dt>Rights</dt><dd>{me.scopes.join(', ') || 'none'}</dd>
      </dl>
    </section>
  );
}
