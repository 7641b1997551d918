/**
 * The tables of signing in beyond the session (issues 38 and 47): second factors, passkeys and their
 * challenges, single sign-on's links, steps and pending sign-ins. Part of schema.ts's Database.
 */
import type { ColumnType, Generated } from 'kysely';

/** A user's TOTP secret (migration 0019): sealed at rest; the last accepted time step, so a code works once. */
export interface TotpSecretsTable {
  user_id: number;
  secret: string;
  confirmed: ColumnType<number, number | undefined, number>;
  last_step: number | null;
  created_at: string;
  confirmed_at: string | null;
}

/** A recovery code of a user with TOTP on (migration 0019): its SHA-256 only; used once. */
export interface RecoveryCodesTable {
  id: Generated<number>;
  user_id: number;
  code_hash: string;
  created_at: string;
  used_at: string | null;
}

/** A user's WebAuthn credential (issue 38). */
export interface PasskeysTable {
  id: Generated<number>;
  user_id: number;
  /** base64url, as the browser names it. */
  credential_id: string;
  /** COSE public key, base64url. */
  public_key: string;
  /** bigint: PostgreSQL gives it as a string (read it with Number). */
  counter: ColumnType<number | string, number, number>;
  /** JSON array of the transports the authenticator named (usb, nfc, ble, internal, hybrid). */
  transports: string;
  name: string;
  created_at: string;
  last_used_at: string | null;
  /** 1 once the authenticator verified the user (UV) at registration or a sign-in: then it is a second factor. */
  user_verified: Generated<number>;
  /**
   * The session it was registered from (migration 0047, issue 69): disabling that device removes it. Null for one
   * registered before, or once that session ended (the link goes with the session).
   */
  session_id: ColumnType<number | null, number | null | undefined, number | null>;
}

/** A WebAuthn challenge handed out: good once, until expires_at. */
export interface WebauthnChallengesTable {
  id: Generated<number>;
  challenge: string;
  user_id: number | null;
  expires_at: string;
}

/** How a session was opened: a password (with its second factor, if any), a passkey, an identity provider. */
export type SignInMethod = 'password' | 'passkey' | 'sso';

/** An account's identity at an OpenID Connect provider (issue 38); user_id null once the account is deleted. */
export interface IdentityLinksTable {
  id: Generated<number>;
  issuer: string;
  /** The provider's `sub`. */
  subject: string;
  user_id: number | null;
  /** The email the provider gave at the last sign-in (shown to administrators). */
  email: string | null;
  created_at: string;
  last_used_at: string | null;
}

/** One step of a sign-in through the provider: its `state` (PKCE verifier, nonce), then its one-time code. */
export interface OidcSignInsTable {
  id: Generated<number>;
  /** `intent`: a link or a confirmation asked by a signed-in session, before its state (migration 0025). */
  kind: 'intent' | 'state' | 'code';
  /** SHA-256 of the state or of the code; neither is stored. */
  key_hash: string;
  code_verifier: string | null;
  nonce: string | null;
  user_id: number | null;
  expires_at: string;
  /** What the sign-in is for (migration 0025); null: signing in. */
  purpose: ColumnType<OidcPurpose | null, OidcPurpose | null | undefined, OidcPurpose | null>;
  /** The session that asked to link or confirm. */
  session_id: ColumnType<number | null, number | null | undefined, number | null>;
  /** SHA-256 of the browser binding cookie set at the start; the code is redeemed only with it. */
  binding_hash: ColumnType<string | null, string | null | undefined, string | null>;
  /** 1: the provider said a second factor was used (OIDC_MFA_AMR / OIDC_MFA_ACR). */
  mfa: ColumnType<number, number | undefined, number>;
}

/** What a sign-in through the provider is for: signing in, linking it to one's account, confirming it is one. */
export type OidcPurpose = 'signin' | 'link' | 'confirm';

/** A provider identity refused because an unlinked account has its email (migration 0025): an administrator decides. */
export interface IdentityRequestsTable {
  id: Generated<number>;
  issuer: string;
  subject: string;
  email: string;
  name: string;
  /** The account whose login is that email. */
  user_id: number;
  created_at: string;
  last_seen_at: string;
}
