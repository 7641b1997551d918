/**
 * One Web Push request (RFC 8030, RFC 8291 aes128gcm, VAPID): `web-push` encrypts and signs it, and the request
 * itself is made here so that it has a hard deadline (connection, TLS and answer together: `web-push`'s own
 * time-out fires only on silence, and a push service trickling bytes could hold a send forever) and reads an
 * answer's body up to 64 kB. `web-push` and the HTTPS agents come with the first request only: an instance that
 * never pushes never holds them. Endpoints of PUSH_ENDPOINT_ALLOW may be on a private network; every other one may
 * not, checked per connection (endpoints.ts).
 */
import type { Agent } from 'node:https';
import { allowedOrigin, guardedLookup } from './endpoints.ts';
import type { VapidKeys } from './keys.ts';
import type { Job } from './send-queue.ts';

const ANSWER_BODY_MAX = 64 * 1024;

type WebPush = typeof import('web-push');

export interface PushAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
}

export function pushRequests(deps: {
  keys: VapidKeys;
  subject: () => Promise<string>;
  allow: readonly string[];
  extraCa: string | undefined;
}) {
  let library:
    | Promise<{ webpush: WebPush; https: typeof import('node:https'); openAgent: Agent; guardedAgent: Agent }>
    | undefined;
  let agents: Agent[] = [];
  const inFlight = new Set<AbortController>();

  const load = () => {
    library ??= Promise.all([import('web-push'), import('node:https'), import('node:tls')]).then(
      ([module, https, tls]) => {
        const ca = deps.extraCa ? [...tls.rootCertificates, deps.extraCa] : undefined;
        const openAgent = new https.Agent({ keepAlive: true, ...(ca ? { ca } : {}) });
        const guardedAgent = new https.Agent({ keepAlive: true, lookup: guardedLookup, ...(ca ? { ca } : {}) });
        agents = [openAgent, guardedAgent];
        return { webpush: (module as { default?: WebPush }).default ?? module, https, openAgent, guardedAgent };
      },
    );
    return library;
  };

  return {
    /** One POST to the push service, within `timeoutMs` in all. */
    async post(job: Job, timeoutMs: number): Promise<PushAnswer> {
      const { webpush, https, openAgent, guardedAgent } = await load();
      const { subscription } = job;
      const details = webpush.generateRequestDetails(
        { endpoint: subscription.endpoint, keys: subscription.keys },
        job.payload,
        {
          vapidDetails: {
            subject: await deps.subject(),
            publicKey: deps.keys.publicKey,
            privateKey: deps.keys.privateKey,
          },
          TTL: job.options.ttl,
          urgency: job.options.urgency,
          ...(job.options.topic ? { topic: job.options.topic } : {}),
          contentEncoding: 'aes128gcm',
        },
      );
      const abort = new AbortController();
      inFlight.add(abort);
      const deadline = setTimeout(() => abort.abort(new Error('push send timed out')), timeoutMs);
      try {
        return await new Promise<PushAnswer>((resolve, reject) => {
          const request = https.request(
            details.endpoint,
            {
              method: details.method,
              headers: details.headers as Record<string, string | number>,
              agent: allowedOrigin(subscription.endpoint, deps.allow) ? openAgent : guardedAgent,
              signal: abort.signal,
            },
            (response) => {
              let read = 0;
              response.on('data', (chunk: Buffer) => {
                read += chunk.length;
                if (read > ANSWER_BODY_MAX) response.destroy(new Error('push service answer too long'));
              });
              response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers }));
              response.on('error', reject);
            },
          );
          request.on('error', reject);
          request.end(details.body ?? undefined);
        });
      } finally {
        clearTimeout(deadline);
        inFlight.delete(abort);
      }
    },

    /** Aborts the requests on their way and closes the agents' connections. */
    close(): void {
      for (const abort of inFlight) abort.abort(new Error('push sender closed'));
      for (const agent of agents) agent.destroy();
    },
  };
}
