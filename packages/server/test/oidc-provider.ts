/**
 * A real OpenID Connect provider for the single sign-on tests (oidc-provider, its development interactions, in
 * memory), over http on a free port of 127.0.0.1, and a browser of its pages driven with plain HTTP: cookies
 * kept per origin, redirects followed by hand, the login and consent forms posted as a person would.
 */
import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider from 'oidc-provider';

export interface TestIdentity {
  email?: string;
  email_verified?: boolean;
  given_name?: string;
  family_name?: string;
  groups?: string[];
  /** How the provider says the person signed in (the ID token's `amr` and `acr`), given at the login page. */
  amr?: string[];
  acr?: string;
}

export const TEST_CLIENT = { id: 'talkgroup', secret: 'a-client-secret-for-the-tests-only-0123456789' };

export interface TestProvider {
  issuer: string;
  /** The people the provider knows, by their `sub` (the dev login form takes any login: it is the sub). */
  identities: Map<string, TestIdentity>;
  close(): Promise<void>;
}

export async function startTestProvider(redirectUri: string): Promise<TestProvider> {
  const identities = new Map<string, TestIdentity>();
  let handler: ((req: never, res: never) => void) | undefined;
  let provider: Provider | undefined;
  const server: Server = createServer((req, res) => {
    // The development login form names the account only: its submission is finished here, with the `amr` and
    // `acr` of the identity (what a real provider sets from how the person authenticated).
    if (req.method === 'POST' && /^\/interaction\/[^/]+$/.test(req.url ?? '') && provider) {
      const current = provider;
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        const form = new URLSearchParams(Buffer.concat(chunks).toString());
        const finish = async () => {
          if (form.get('prompt') === 'login') {
            const accountId = form.get('login') ?? '';
            const identity = identities.get(accountId);
            await current.interactionFinished(
              req,
              res,
              {
                login: {
                  accountId,
                  ...(identity?.amr ? { amr: identity.amr } : {}),
                  ...(identity?.acr ? { acr: identity.acr } : {}),
                },
              },
              { mergeWithLastSubmission: false },
            );
            return;
          }
          const details = await current.interactionDetails(req, res);
          const grant = details.grantId
            ? await current.Grant.find(details.grantId)
            : new current.Grant({ accountId: details.session?.accountId, clientId: String(details.params.client_id) });
          if (!grant) throw new Error('no grant');
          const missing = details.prompt.details as { missingOIDCScope?: string[]; missingOIDCClaims?: string[] };
          if (missing.missingOIDCScope) grant.addOIDCScope(missing.missingOIDCScope.join(' '));
          if (missing.missingOIDCClaims) grant.addOIDCClaims(missing.missingOIDCClaims);
          await current.interactionFinished(
            req,
            res,
            { consent: { grantId: await grant.save() } },
            { mergeWithLastSubmission: true },
          );
        };
        finish().catch((error: unknown) => {
          res.statusCode = 500;
          res.end(String(error));
        });
      });
      return;
    }
    handler?.(req as never, res as never);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  provider = new Provider(issuer, {
    clients: [
      {
        client_id: TEST_CLIENT.id,
        client_secret: TEST_CLIENT.secret,
        redirect_uris: [redirectUri],
        grant_types: ['authorization_code'],
        response_types: ['code'],
        token_endpoint_auth_method: 'client_secret_basic',
      },
    ],
    // PKCE for every client, not only public ones.
    pkce: { required: () => true },
    scopes: ['openid', 'email', 'profile', 'groups'],
    claims: {
      // How the person authenticated, and when, in every ID token (as Entra ID and Keycloak send them).
      openid: ['sub', 'amr', 'acr', 'auth_time'],
      email: ['email', 'email_verified'],
      profile: ['given_name', 'family_name', 'name'],
      groups: ['groups'],
    },
    findAccount: async (_ctx, sub) => {
      const identity = identities.get(sub);
      if (!identity) return undefined;
      return { accountId: sub, claims: async () => ({ sub, ...identity }) };
    },
    features: { devInteractions: { enabled: true } },
    cookies: { keys: ['test-cookie-key-0123456789abcdef'] },
  });
  handler = provider.callback() as never;
  return {
    issuer,
    identities,
    async close() {
      server.closeAllConnections();
      server.close();
      await once(server, 'close');
    },
  };
}

/** A browser's cookies for the provider's origin (the tests send them on every path: names do not clash). */
export class CookieJar {
  private readonly cookies = new Map<string, string>();

  take(response: Response): void {
    for (const line of response.headers.getSetCookie()) {
      const [pair = ''] = line.split(';');
      const at = pair.indexOf('=');
      const name = pair.slice(0, at).trim();
      const value = pair.slice(at + 1).trim();
      if (value === '' || /max-age=0|expires=thu, 01 jan 1970/i.test(line)) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }

  header(): string {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
  }
}

/**
 * Goes through the provider from its authorization address to the redirect back: signs in as `sub` on the login
 * page and accepts the consent page; with `deny`, aborts at the login page (the person refuses). Returns the
 * redirect URI with the provider's answer in its query.
 */
export async function throughProvider(
  authorizationUrl: string,
  redirectUri: string,
  options: { sub: string; deny?: boolean; jar?: CookieJar },
): Promise<string> {
  const jar = options.jar ?? new CookieJar();
  let url = authorizationUrl;
  for (let step = 0; step < 12; step++) {
    if (url.startsWith(redirectUri)) return url;
    const response = await fetch(url, { redirect: 'manual', headers: { cookie: jar.header() } });
    jar.take(response);
    const location = response.headers.get('location');
    if (location) {
      url = new URL(location, url).href;
      continue;
    }
    const page = await response.text();
    const prompt = /name="prompt" value="(\w+)"/.exec(page)?.[1];
    if (response.status !== 200 || !prompt)
      throw new Error(`unexpected provider page ${response.status}: ${page.slice(0, 300)}`);
    if (options.deny) {
      url = `${url.replace(/\/$/, '')}/abort`;
      continue;
    }
    const form = new URLSearchParams({
      prompt,
      ...(prompt === 'login' ? { login: options.sub, password: 'any' } : {}),
    });
    const submitted = await fetch(url, {
      method: 'POST',
      redirect: 'manual',
      headers: { cookie: jar.header(), 'content-type': 'application/x-www-form-urlencoded' },
      body: form,
    });
    jar.take(submitted);
    const next = submitted.headers.get('location');
    if (!next) throw new Error(`the provider's ${prompt} form did not redirect (${submitted.status})`);
    url = new URL(next, url).href;
  }
  throw new Error('the provider never sent the browser back');
}
