/** Single sign-on's OIDC_* variables (issues 38 and 47), read for config.ts. */
import { knownRole, ROLES, type Role } from '@talkgroup/protocol';
import { ConfigError, parseFlag } from './values.ts';

/** Single sign-on through an OpenID Connect provider (issue 38): OIDC_* variables; absent when OIDC_ISSUER is unset. */
export interface OidcConfig {
  /** The provider's issuer identifier (OIDC_ISSUER): its discovery document is at /.well-known/openid-configuration. */
  issuer: string;
  clientId: string;
  /** OIDC_CLIENT_SECRET; unset: a public client (PKCE alone). */
  clientSecret: string | undefined;
  /** The provider's name on the sign-in button (OIDC_NAME): "Sign in with {name}". */
  name: string;
  /** OIDC_SCOPES, space-separated (default `openid email profile`). */
  scopes: string;
  /** The claim that carries the groups or roles (OIDC_ROLE_CLAIM, e.g. `groups`); unset: everyone is a member. */
  roleClaim: string | undefined;
  /** OIDC_ROLE_MAP (`group:role,...`): a group's role; a user in no mapped group is a member, in several the strongest. */
  roleMap: Array<{ group: string; role: Role }>;
  /** OIDC_ONLY=true: the password form is hidden and /user/api/login refused (npm run admin stays). */
  only: boolean;
  /** The address the provider sends the browser back to: {PUBLIC_URL}/auth/oidc/callback. */
  redirectUri: string;
  /** OIDC_ALLOW_HTTP=true (tests and development only): an http:// issuer is accepted. */
  allowHttp: boolean;
  /**
   * OIDC_LINK_BY_EMAIL=true (issue 47; off by default): a provider identity whose verified email is an existing
   * account's login is linked to it at its first sign-in, never for an administrator's account or an identity the
   * role map makes an administrator. Off: only the account's owner (from /account) or an administrator links.
   */
  linkByEmail: boolean;
  /** OIDC_MFA_AMR: `amr` values that say a second factor was used (default mfa, otp, hwk, swk). */
  mfaAmr: string[];
  /** OIDC_MFA_ACR: `acr` values that say a second factor was used (default none). */
  mfaAcr: string[];
}

/** OIDC_ROLE_MAP: `group:role` pairs separated by commas; a group may hold colons itself (the last one splits). */
export function parseRoleMap(raw: string | undefined): OidcConfig['roleMap'] {
  const pairs = (raw ?? '')
    .split(',')
    .map((pair) => pair.trim())
    .filter(Boolean);
  return pairs.map((pair) => {
    const at = pair.lastIndexOf(':');
    const group = pair.slice(0, at).trim();
    const role = knownRole(pair.slice(at + 1).trim());
    if (at <= 0 || !group || !role)
      throw new ConfigError(
        `OIDC_ROLE_MAP must list group:role pairs separated by commas (roles: ${ROLES.join(', ')}), such as tg-admins:admin,tg-dispatch:dispatcher; "${pair}" is not one`,
      );
    return { group, role };
  });
}

export function parseOidc(env: NodeJS.ProcessEnv, publicUrl: string | undefined): OidcConfig | undefined {
  const issuer = env.OIDC_ISSUER || undefined;
  const only = parseFlag('OIDC_ONLY', env.OIDC_ONLY);
  const allowHttp = parseFlag('OIDC_ALLOW_HTTP', env.OIDC_ALLOW_HTTP);
  if (!issuer) {
    if (only)
      throw new ConfigError('OIDC_ONLY=true needs single sign-on: set OIDC_ISSUER, OIDC_CLIENT_ID and PUBLIC_URL');
    for (const name of [
      'OIDC_CLIENT_ID',
      'OIDC_CLIENT_SECRET',
      'OIDC_ROLE_MAP',
      'OIDC_ROLE_CLAIM',
      'OIDC_LINK_BY_EMAIL',
      'OIDC_MFA_AMR',
      'OIDC_MFA_ACR',
    ])
      if (env[name])
        throw new ConfigError(`${name} is set but OIDC_ISSUER is not: set the provider's issuer address too`);
    return undefined;
  }
  let issuerUrl: URL;
  try {
    issuerUrl = new URL(issuer);
  } catch {
    throw new ConfigError(
      `OIDC_ISSUER must be the provider's issuer address, such as https://login.example.org/realms/talk, not "${issuer}"`,
    );
  }
  if (issuerUrl.protocol !== 'https:' && !(issuerUrl.protocol === 'http:' && allowHttp))
    throw new ConfigError(
      `OIDC_ISSUER must be an https:// address (OIDC_ALLOW_HTTP=true accepts http:// for tests only), not "${issuer}"`,
    );
  const clientId = env.OIDC_CLIENT_ID?.trim();
  if (!clientId)
    throw new ConfigError('OIDC_CLIENT_ID is required with OIDC_ISSUER: the client (application) id the provider gave');
  if (!publicUrl)
    throw new ConfigError(
      'PUBLIC_URL is required with OIDC_ISSUER: the provider sends users back to {PUBLIC_URL}/auth/oidc/callback',
    );
  const scopes = (env.OIDC_SCOPES || 'openid email profile').split(/[\s,]+/).filter(Boolean);
  if (!scopes.includes('openid'))
    throw new ConfigError(`OIDC_SCOPES must include openid (default: openid email profile), not "${env.OIDC_SCOPES}"`);
  const roleMap = parseRoleMap(env.OIDC_ROLE_MAP);
  const roleClaim = env.OIDC_ROLE_CLAIM?.trim() || undefined;
  if (roleMap.length > 0 && !roleClaim)
    throw new ConfigError('OIDC_ROLE_MAP needs OIDC_ROLE_CLAIM: the claim that carries the groups, such as groups');
  const name = env.OIDC_NAME?.trim() || issuerUrl.hostname;
  if (name.length > 60)
    throw new ConfigError(`OIDC_NAME must be a short name for the sign-in button (60 characters at most)`);
  return {
    issuer,
    clientId,
    clientSecret: env.OIDC_CLIENT_SECRET || undefined,
    name,
    scopes: scopes.join(' '),
    roleClaim,
    roleMap,
    only,
    redirectUri: `${publicUrl}/auth/oidc/callback`,
    allowHttp,
    linkByEmail: parseFlag('OIDC_LINK_BY_EMAIL', env.OIDC_LINK_BY_EMAIL),
    mfaAmr: parseClaimValues('OIDC_MFA_AMR', env.OIDC_MFA_AMR, ['mfa', 'otp', 'hwk', 'swk']),
    mfaAcr: parseClaimValues('OIDC_MFA_ACR', env.OIDC_MFA_ACR, []),
  };
}

/** OIDC_MFA_AMR / OIDC_MFA_ACR: values separated by commas or spaces; unset: the default; `none`: no value counts. */
export function parseClaimValues(name: string, raw: string | undefined, fallback: string[]): string[] {
  if (raw === undefined || raw.trim() === '') return fallback;
  if (raw.trim() === 'none') return [];
  const values = raw.split(/[\s,]+/).filter(Boolean);
  const bad = values.find((value) => value.length > 200 || /[^\x21-\x7e]/.test(value));
  if (bad !== undefined)
    throw new ConfigError(`${name} must list claim values separated by commas (such as mfa,otp,hwk), not "${raw}"`);
  return values;
}
