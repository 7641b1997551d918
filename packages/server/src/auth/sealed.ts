/**
 * Sealing a secret kept for a while in the database (an import job's passwords, until their row is handled):
 * AES-256-GCM under a key derived (HKDF) from DATA_DIR/secret.key, the key every instance of a deployment
 * shares already (file links are signed with it). A copy of the database alone does not give the passwords.
 */
import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

const PREFIX = 'sealed:v1:';

export interface Sealer {
  seal(text: string): string;
  /** The text sealed, or the text itself when it was not sealed (rows written before sealing). */
  open(text: string): string;
}

export function sealer(secret: Buffer, purpose: string): Sealer {
  const key = Buffer.from(hkdfSync('sha256', secret, Buffer.alloc(0), `talkgroup ${purpose}`, 32));
  return {
    seal(text) {
      const iv = randomBytes(12);
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
