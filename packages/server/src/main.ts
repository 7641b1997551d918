/** Reads the configuration, opens the database, creates the first administrator if asked, and listens. */
import { createRequire } from 'node:module';
import { buildApp } from './app.ts';
import { oidcStartLine } from './auth/oidc-routes.ts';
import { ConfigError, loadConfig } from './config.ts';

/**
 * Pretty logs in a terminal when pino-pretty is installed: it is a development dependency, so a production
 * install (npm install --omit=dev) logs JSON instead of failing to start.
 */
function prettyTransport(): { transport?: { target: string } } {
  if (!process.stdout.isTTY) return {};
  try {
    createRequire(import.meta.url).resolve('pino-pretty');
    return { transport: { target: 'pino-pretty' } };
  } catch {
    return {};
  }
}

async function main() {
  const config = loadConfig();
  const app = await buildApp(config, {
    logger: {
      level: config.logLevel,
      ...prettyTransport(),
    },
  });
  const log = app.fastify.log;

  if (config.adminLogin && config.adminPassword && (await app.services.users.count()) === 0) {
    const weak = app.services.passwordPolicy.problem(config.adminPassword);
    if (weak) throw new ConfigError(`ADMIN_PASSWORD: ${weak.message}`);
    await app.services.users.create({
      firstName: 'Admin',
      lastName: 'Talkgroup',
      identifier: config.adminLogin,
      password: config.adminPassword,
      role: 'admin',
    });
    log.info(`created the administrator ${config.adminLogin}`);
  }
  await app.services.sessions.purgeExpired();

  await app.fastify.listen({ port: config.port, host: config.host });
  log.info(
    `Talkgroup ${process.env.npm_package_version ?? ''} on ${app.services.database.dialect}, data in ${config.dataDir}`,
  );
  const sso = oidcStartLine(config.oidc);
  if (sso) log.info(sso);

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    log.info(`${signal}: closing`);
    const timer = setTimeout(() => process.exit(1), 10_000);
    timer.unref();
    await app.close();
    process.exit(0);
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));
}

main().catch((error) => {
  console.error(error instanceof ConfigError ? `Configuration error: ${error.message}` : error);
  process.exit(1);
});
