/**
 * An SSO test bench: a real gateway (default preset, identity.sso on a clock the test moves) whose
 * log lines are kept, a real OIDC provider (oidc-provider) registered with the gateway's callback,
 * and the organisation configured for it with the email domain `acme.test`.
 */
import { createLogger, type PluginEntry } from '../../../../core/index.js';
import SsoPlugin from '../../../../plugins/identity/sso/index.js';
import { OidcBrowser, type BrowserOptions, type Seen } from '../../../fixtures/oidc-browser.js';
import { startOidcProvider, type OidcProviderOptions, type TestAccount, type TestOidcProvider } from '../../../fixtures/oidc-provider.js';
import { startGateway, TEST_API_KEY, type TestGateway } from '../../../helpers/gateway.js';
import { client, ManualClock, type Client } from '../../admin/api-keys/helpers.js';

export const CLIENT_ID = 'gw-test-client';
export const CLIENT_SECRET = 'oidc-client-secret-4f1d9c2b7a';
export const DOMAIN = 'acme.test';

export const ACCOUNTS: Record<string, TestAccount> = {
  alice: { email: 'Alice@acme.test', name: 'Alice' },
  bob: { email: 'bob@acme.test', name: 'Bob' },
  carol: { email: 'carol@eng.acme.test', name: 'Carol' },
  mallory: { email: 'mallory@elsewhere.test' },
  unverified: { email: 'dave@acme.test', email_verified: false },
  owner: { email: 'owner@acme.test' },
  manager: { email: 'manager@acme.test' },
};

export interface BenchOptions {
  ssoOptions?: Record<string, unknown>;
  env?: Record<string, string>;
  provider?: Partial<OidcProviderOptions>;
  /** Register the gateway with the provider (PUT /v1/organisation/sso, domain acme.test). Default true. */
  configure?: boolean;
  /** Another gateway's data folder: both then share one store (a fleet). */
  dataDir?: string;
  /** More plugins (e.g. identity.scim). */
  plugins?: PluginEntry[];
}

export interface Bench {
  gw: TestGateway;
  provider: TestOidcProvider;
  clock: ManualClock;
  owner: Client;
  lines: string[];
  /** The https origin a TLS proxy in front of the gateway would have. */
  publicOrigin: string;
  browser(options?: BrowserOptions): OidcBrowser;
  /** A whole sign-in; answers the callback's answer and the browser (holding the session cookie). */
  signIn(login: string, email?: string, browser?: OidcBrowser): Promise<{ callback: Seen; browser: OidcBrowser }>;
  /** A request with a browser's cookies for the gateway. */
  withSession(browser: OidcBrowser, method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<{ status: number; json: any }>;
  stop(): Promise<void>;
}

export function ssoWith(clock: ManualClock): typeof SsoPlugin {
  return class ManualClockSso extends SsoPlugin {
    constructor() {
      super(clock);
    }
  };
}

export async function startBench(options: BenchOptions = {}): Promise<Bench> {
  const clock = new ManualClock();
  const lines: string[] = [];
  const gw = await startGateway({
    plugins: [{ use: ssoWith(clock), options: options.ssoOptions ?? {} }, { use: 'admin.workspaces', options: { refreshIntervalMs: 0 } }, ...(options.plugins ?? [])],
    env: options.env,
    settings: options.dataDir === undefined ? undefined : { dataDir: options.dataDir },
    logger: createLogger('debug', { write: (line: string) => void lines.push(line) }),
  });
  const port = new URL(gw.url).port;
  const publicOrigin = `https://127.0.0.1:${port}`;
  const provider = await startOidcProvider({
    clientId: CLIENT_ID,
    clientSecret: CLIENT_SECRET,
    redirectUris: [`${gw.url}/v1/sso/callback`, `${publicOrigin}/v1/sso/callback`],
    accounts: ACCOUNTS,
    ...options.provider,
  });
  const owner = client(gw.url, TEST_API_KEY);
  if (options.configure !== false) {
    const put = await owner.put('/v1/organisation/sso', { issuer: provider.issuer, client_id: CLIENT_ID, client_secret: CLIENT_SECRET });
    if (put.status !== 200) throw new Error(`PUT /v1/organisation/sso: ${put.status} ${put.text}`);
    const domain = await owner.post('/v1/organisation/sso/domains', { domain: DOMAIN, allow_subdomains: true });
    if (domain.status !== 200 && domain.json?.error?.code !== 'duplicate') throw new Error(`POST domain: ${domain.status} ${domain.text}`);
  }
  const signIn = async (login: string, email = ACCOUNTS[login]?.email ?? `${login}@${DOMAIN}`, browser = new OidcBrowser()) => {
    const { last } = await browser.signIn(`${gw.url}/v1/sso/login?email=${encodeURIComponent(email)}`, login);
    return { callback: last, browser };
  };
  const withSession = async (browser: OidcBrowser, method: string, path: string, body?: unknown, headers: Record<string, string> = {}) => {
    const url = new URL(path, gw.url);
    const res = await fetch(url, {
      method,
      headers: { cookie: browser.cookiesFor(url), ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    let json: any;
    try {
      json = JSON.parse(text);
    } catch {
      json = undefined;
    }
    return { status: res.status, json };
  };
  return {
    gw, provider, clock, owner, lines, publicOrigin,
    browser: (browserOptions) => new OidcBrowser(browserOptions),
    signIn,
    withSession,
    stop: async () => {
      await gw.stop();
      await provider.close();
    },
  };
}
