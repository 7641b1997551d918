/** The two databases the server runs on: the embedded SQLite, or PostgreSQL (DATABASE_URL). */
export type Dialect = 'sqlite' | 'postgres';
