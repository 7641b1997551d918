/**
 * A software authenticator for the server tests: a P-256 key pair (ES256) that answers WebAuthn options the
 * way a browser and a platform authenticator would (the `none` attestation, a discoverable credential), byte
 * for byte as the Web Authentication spec lays them out. The browser suite uses Chromium's own virtual
 * authenticator instead.
 */
import { createHash, generateKeyPairSync, randomBytes, sign } from 'node:crypto';
import { isoCBOR } from '@simplewebauthn/server/helpers';

const b64u = (bytes: Uint8Array | Buffer) => Buffer.from(bytes).toString('base64url');
const sha256 = (data: Uint8Array | string) => createHash('sha256').update(data).digest();

// Flags of the authenticator data: user present, user verified, attested credential data included.
const UP = 0x01;
const UV = 0x04;
const AT = 0x40;

export interface SoftAuthenticator {
  credentialId: string;
  /** Answers navigator.credentials.create's options (PublicKeyCredentialCreationOptionsJSON). */
  register(options: any, origin: string): object;
  /** Answers navigator.credentials.get's options, signing with the next counter value. */
  authenticate(options: any, origin: string, rpId?: string): object;
  /** The signature counter it will report next (a cloned authenticator goes back). */
  counter: number;
  /** Whether it verifies its user (PIN, fingerprint: the UV flag) in what it answers next; true by default. */
  userVerified: boolean;
}

export function softAuthenticator({ userVerified = true }: { userVerified?: boolean } = {}): SoftAuthenticator {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const jwk = publicKey.export({ format: 'jwk' });
  const credential = randomBytes(16);
  // COSE_Key: kty EC2 (2), alg ES256 (-7), crv P-256 (1), x, y.
  const coseKey = isoCBOR.encode(
    new Map<number, number | Uint8Array>([
      [1, 2],
      [3, -7],
      [-1, 1],
      [-2, new Uint8Array(Buffer.from(jwk.x as string, 'base64url'))],
      [-3, new Uint8Array(Buffer.from(jwk.y as string, 'base64url'))],
    ]),
  );
  let userHandle = '';
  let rpIdOfRegistration = '';

  const counterBytes = (value: number) => {
    const bytes = Buffer.alloc(4);
    bytes.writeUInt32BE(value);
    return bytes;
  };
  const clientData = (type: string, challenge: string, origin: string) =>
    Buffer.from(JSON.stringify({ type, challenge, origin, crossOrigin: false }));

  const authenticator: SoftAuthenticator = {
    credentialId: b64u(credential),
    counter: 1,
    userVerified,
    register(options, origin) {
      rpIdOfRegistration = options.rp.id;
      userHandle = options.user.id;
      const idLength = Buffer.alloc(2);
      idLength.writeUInt16BE(credential.length);
      const authData = Buffer.concat([
        sha256(options.rp.id),
        Buffer.from([UP | (authenticator.userVerified ? UV : 0) | AT]),
        counterBytes(0),
        Buffer.alloc(16), // AAGUID: none
        idLength,
        credential,
        Buffer.from(coseKey),
      ]);
      const attestationObject = isoCBOR.encode(
        new Map<string, unknown>([
          ['fmt', 'none'],
          ['attStmt', new Map()],
          ['authData', new Uint8Array(authData)],
        ]) as never,
      );
      return {
        id: b64u(credential),
        rawId: b64u(credential),
        type: 'public-key',
        response: {
          clientDataJSON: b64u(clientData('webauthn.create', options.challenge, origin)),
          attestationObject: b64u(attestationObject),
          transports: ['internal'],
        },
        clientExtensionResults: {},
        authenticatorAttachment: 'platform',
      };
    },
    authenticate(options, origin, rpId = options.rpId ?? rpIdOfRegistration) {
      const flags = UP | (authenticator.userVerified ? UV : 0);
      const authData = Buffer.concat([sha256(rpId), Buffer.from([flags]), counterBytes(authenticator.counter)]);
      authenticator.counter += 1;
      const clientDataJSON = clientData('webauthn.get', options.challenge, origin);
      const signature = sign('sha256', Buffer.concat([authData, sha256(clientDataJSON)]), privateKey);
      return {
        id: b64u(credential),
        rawId: b64u(credential),
        type: 'public-key',
        response: {
          clientDataJSON: b64u(clientDataJSON),
          authenticatorData: b64u(authData),
          signature: b64u(signature),
          userHandle,
        },
        clientExtensionResults: {},
        authenticatorAttachment: 'platform',
      };
    },
  };
  return authenticator;
}
