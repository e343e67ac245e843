/**
 * The console shell: signs the person in, asks the gateway who they are, then shows the
 * navigation and the page named by the URL's fragment.
 */
import { useEffect, useMemo, useState } from 'preact/hooks';
import { Api, ApiError } from './api';
import { ConsoleContext, useConsole, type Console } from './context';
import { PAGES, type PageDef } from './pages/index';
import { href, useLocation } from './router';
import { can, endSso, forgetKey, keepKey, storedSignIn, type Me, type SignIn } from './session';
import { SignInForm } from './sign-in';

export function App() {
  // Without a key in this tab, an SSO session cookie may be there already (back from the provider).
  const [signIn, setSignIn] = useState<SignIn | undefined>(() => storedSignIn() ?? { kind: 'sso' });
  const [me, setMe] = useState<Me | undefined>();
  const [error, setError] = useState<string | undefined>();
  const forget = () => {
    forgetKey();
    setSignIn(undefined);
    setMe(undefined);
  };
  const signOut = () => {
    if (signIn?.kind === 'sso') void endSso();
    forget();
  };
  const api = useMemo(() => (signIn ? new Api(signIn, forget) : undefined), [signIn]);

  useEffect(() => {
    if (!api || !signIn) return;
    api.get<Me>('/v1/console/me').then(setMe, (e: Error) => {
      const unknown = e instanceof ApiError && e.status === 401;
      // No session to find is not an error: the person simply has not signed in yet.
      if (!(unknown && signIn.kind === 'sso')) setError(unknown ? 'The gateway did not accept this key.' : e.message);
      forget();
    });
  }, [api]);

  if (!signIn || !api) {
    return <SignInForm error={error} onKey={(key) => { setError(undefined); keepKey(key); setSignIn({ kind: 'api_key', key }); }} />;
  }
  if (!me) return <p class="loading" role="status">Signing in…</p>;
  const console: Console = { api, me, signOut };
  return (
    <ConsoleContext.Provider value={console}>
      <Shell />
    </ConsoleContext.Provider>
  );
}

function Shell() {
  const location = useLocation();
  const { me, signOut } = useConsole();
  const visible = PAGES.filter((page) => !page.scope || [page.scope].flat().some((scope) => can(me, scope)));
  const page = visible.find((p) => p.id === location.page);
  return (
    <div class="shell">
      <a class="skip" href="#main">Skip to content</a>
      <nav aria-label="Console">
        <p class="brand">gw</p>
        <NavList pages={visible.filter((p) => !p.admin)} current={location.page} />
        {visible.some((p) => p.admin) && <p class="nav-group" id="nav-admin">Administration</p>}
        <NavList pages={visible.filter((p) => p.admin)} current={location.page} labelledBy="nav-admin" />
        <button type="button" class="sign-out" onClick={signOut}>Sign out</button>
      </nav>
      <main id="main" tabIndex={-1}>
        {page ? <page.component /> : <p role="alert">No such page here, or your rights do not include it.</p>}
      </main>
    </div>
  );
}

function NavList(props: { pages: PageDef[]; current: string; labelledBy?: string }) {
  if (props.pages.length === 0) return null;
  return (
    <ul aria-labelledby={props.labelledBy}>
      {props.pages.map((p) => (
        <li key={p.id}>
          <a href={href(p.id)} aria-current={p.id === props.current ? 'page' : undefined}>{p.label}</a>
        </li>
      ))}
    </ul>
  );
}
