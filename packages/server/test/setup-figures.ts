/**
 * Every unit test file starts with cheap scrypt figures (passwords.ts setScryptFiguresForTests): real scrypt
 * hashes in the same format, at about 1 ms instead of 150 ms each. passwords.test.ts and hash-pool.test.ts put
 * OWASP's figures back and check them, and that a server process hashes with them.
 */
import { setScryptFiguresForTests } from '../src/auth/passwords.ts';

export const TEST_FIGURES = { N: 1024, r: 8, p: 1 };

setScryptFiguresForTests(TEST_FIGURES);
