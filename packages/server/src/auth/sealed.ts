/**
 * Sealing a secret kept for a while in the database (an import job's passwords, until their row is handled):
 * AES-256-GCM under a key derived (HKDF) from DATA_DIR/secret.key, the key every instance of a deployment
 * shares already (file links are signed with it). A copy of the database alone does not give the passwords.
 */
import { createCipheriv, createDecipheriv, createSecretKey, hkdfSync, randomBytes } from 'node:crypto';

const PREFIX = 'sealed:v1:';
/** IVs are drawn from the random source this many at a time (an import seals thousands of rows at once). */
const IVS_AT_ONCE = 1024;
const IV_BYTES = 12;

export interface Sealer {
  seal(text: string): string;
  /** The text sealed, or the text itself when it was not sealed (rows written before sealing). */
  open(text: string): string;
}

export function sealer(secret: Buffer, purpose: string): Sealer {
  // One KeyObject: a raw key given to each cipher is imported again each time (a third of a seal's cost).
  const key = createSecretKey(Buffer.from(hkdfSync('sha256', secret, Buffer.alloc(0), `talkgroup ${purpose}`, 32)));
  // Random IVs, as before, drawn a batch at a time (one draw a seal was another third); each is used once.
  let ivs = Buffer.alloc(0);
  const nextIv = () => {
    if (ivs.length < IV_BYTES) ivs = randomBytes(IV_BYTES * IVS_AT_ONCE);
    const iv = ivs.subarray(0, IV_BYTES);
    ivs = ivs.subarray(IV_BYTES);
    return iv;
  };
  return {
    seal(text) {
      const iv = nextIv();
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      const sealed = Buffer.concat([cipher.update(text, 'utf8'), cipher.final()]);
      return `${PREFIX}${Buffer.concat([iv, cipher.getAuthTag(), sealed]).toString('base64url')}`;
    },
    open(text) {
      if (!text.startsWith(PREFIX)) return text;
      const bytes = Buffer.from(text.slice(PREFIX.length), 'base64url');
      const decipher = createDecipheriv('aes-256-gcm', key, bytes.subarray(0, 12));
      decipher.setAuthTag(bytes.subarray(12, 28));
      return Buffer.concat([decipher.update(bytes.subarray(28)), decipher.final()]).toString('utf8');
    },
  };
}
