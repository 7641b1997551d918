/** Reads the configuration, opens the database, creates the first administrator if asked, and listens. */
import { createRequire } from 'node:module';
import { buildApp } from './app.ts';
import { oidcStartLine } from './auth/oidc-routes.ts';
import { passkeysStartLine } from './auth/passkeys.ts';
import { type Config, ConfigError, loadConfig } from './config/config.ts';
import { type StartStep, stalledStartSentence, startFailureSentence } from './ops/start-failure.ts';

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

/** How far the start got, for the sentence printed if it fails. */
const progress: { step: StartStep; config?: Config } = { step: 'configuration' };

async function main() {
  const config = loadConfig();
  progress.config = config;
  progress.step = 'build';
  const app = await buildApp(config, {
    logger: {
      level: config.logLevel,
      ...prettyTransport(),
    },
  });
  const log = app.fastify.log;
  progress.step = 'administrator';

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

  progress.step = 'listen';
  await app.fastify.listen({ port: config.port, host: config.host });
  progress.step = 'serving';
  // A promise nobody awaited that failed ends one piece of work, not the server: counted and logged (issue 57). An
  // uncaught exception still ends the process (its state may be half changed): the service manager restarts it
  // (deploy/systemd/talkgroup.service).
  process.on('unhandledRejection', (reason) => app.services.faults.fault('unhandled', reason));
  log.info(
    `Talkgroup ${process.env.npm_package_version ?? ''} on ${app.services.database.dialect}, data in ${config.dataDir}`,
  );
  const sso = oidcStartLine(config.oidc);
  if (sso) log.info(sso);
  const passkeysOff = passkeysStartLine(config.publicUrl);
  if (passkeysOff) log.info(passkeysOff);

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
  if (error instanceof ConfigError) console.error(`Configuration error: ${error.message}`);
  else {
    console.error(startFailureSentence(error, progress.step, progress.config));
    console.error(error);
  }
  process.exit(1);
});
// The event loop emptied before the server listened: never a silent exit with status 0.
process.once('beforeExit', () => {
  if (progress.step === 'serving') return;
  console.error(stalledStartSentence(progress.step));
  process.exit(1);
});
