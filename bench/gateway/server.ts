/**
 * Talkgroup in bench:gateway's own process: the app as packages/server/src/main.ts builds it (loadConfig, then
 * buildApp, then listen), with SQLite in a temporary DATA_DIR, the built web app, Janus and SIP on loopback.
 * In this process rather than one of its own because the page-to-gateway figure is read at the call's RTP relay
 * (`app.sip.relayOf(callId).soundBeganAt`), which only this process can see; its CPU is therefore this
 * process's, read over windows where the bench itself only waits. It answers the e2e fixtures' calls
 * (TalkgroupServer), so that bench/ptt-latency's room pair opens on it as on a server process.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { callsTo, type TalkgroupServer } from '../../e2e/fixtures.ts';
import { type App, buildApp } from '../../packages/server/src/app.ts';
import { loadConfig } from '../../packages/server/src/config/config.ts';

export interface InProcessServer extends TalkgroupServer {
  app: App;
  sipPort: number;
}

export async function startInProcess(env: Record<string, string>): Promise<InProcessServer> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'talkgroup-bench-gateway-'));
  const config = loadConfig({
    DATA_DIR: dataDir,
    WEB_DIR: path.resolve(import.meta.dirname, '../../packages/web/dist'),
    HOST: '127.0.0.1',
    // Every page and phone of the bench comes from 127.0.0.1: the per-address limits are the tests' business.
    CONNECTION_RATE_PER_MINUTE: '100000',
    SIP_REQUESTS_PER_MINUTE: '100000',
    ...env,
  });
  const app = await buildApp(config, { logger: { level: 'error' } });
  await app.fastify.listen({ port: 0, host: '127.0.0.1' });
  const { port } = app.fastify.server.address() as { port: number };
  if (!app.sip) throw new Error('the bench needs SIP_PORT: the app started without SIP');
  const baseURL = `http://127.0.0.1:${port}`;
  return {
    app,
    sipPort: app.sip.port,
    baseURL,
    port,
    dataDir,
    call: callsTo(baseURL),
    output: () => '',
    restart: () => Promise.reject(new Error('the in-process server does not restart')),
    async stop() {
      await app.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
