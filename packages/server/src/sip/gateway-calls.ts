/**
 * A gateway's call, from its INVITE to its end (issue 51): a radio or a desk phone dials `sip:{number}@{host}`
 * and becomes one of the channel's participants.
 *
 * - **Refused with the right answer, and audited**: no credentials, a 401 with the challenge (not audited: the
 *   first step of every call); an unknown login or a wrong answer, 403; a call from an address outside the
 *   gateway's list, 403; a number that names no channel through the media server, 404; a channel the gateway
 *   may not enter, 403; an offer without PCMU, PCMA or Opus, or whose media address is not the caller's, 488.
 *   Every one of those writes `gateway.refused` with the login or the gateway, the number and why.
 * - **Its media**: an RTP relay of ours (rtp-relay.ts) between the gateway and a plain-RTP participant of the
 *   channel's AudioBridge (janus/rtp-participants.ts), muted until it holds the floor.
 * - **Its floor**, like a page's: pressed and released through the same path (floor/push-to-talk.ts) as the
 *   user the gateway talks as, with the gateway's priority; its voice activity (attack and hang time) or its DTMF
 *   (`*` takes, `#` gives back; RFC 4733 or SIP INFO) presses and releases. A refusal plays the busy tone; the
 *   time limit and a preemption take the floor back as for a page.
 * - **Seen**: `user joined` and `user_exit` in the channel's room (RoomPeer.gateway), a row in gateway_calls
 *   that lists it on every instance, and `channel_join` / `channel_leave` in the activity log.
 * - **Ended**: by its BYE, by an administrator (hangUpGatewayCall: the row is flagged, this instance reads it
 *   within a second), by its gateway deleted or no longer allowed in the channel, or by its media server lost.
 */
import { channelIdOfNumber, gatewayPeerId, type RoomPeer } from '@talkgroup/protocol';
import type { FastifyBaseLogger } from 'fastify';
import type { Core } from 'sip.js';
import type { ActivityStore } from '../activities/store.ts';
import type { AuditStore } from '../audit/store.ts';
import type { ChannelStore, ChannelSummary } from '../channels/store.ts';
import type { EventBus } from '../events.ts';
import type { Floor } from '../floor/grants.ts';
import type { Talk, Talker, TalkPlace } from '../floor/push-to-talk.ts';
import { addressAllowed } from '../gateways/addresses.ts';
import { auditRefusedCall, type RefusalReason } from '../gateways/routes.ts';
import type { GatewayStore, SipGateway } from '../gateways/store.ts';
import type { EmitTo } from '../realtime/io.ts';
import { type MediaPlanes, MediaUnavailableError } from '../realtime/media/plane.ts';
import { channelRoom } from '../realtime/room-names.ts';
import type { SipConfig } from './config.ts';
import { type DigestAuthority, digestAuthority, readCredentials } from './digest.ts';
import { RtpRelay } from './rtp-relay.ts';
import { OfferRefused, readOffer, writeAnswer } from './sdp.ts';
import { type Flow, type Signalling, startSignalling } from './signalling.ts';
import { voiceActivity } from './voice-activity.ts';

export interface SipServices {
  gateways: GatewayStore;
  audit: AuditStore;
  channels: Pick<ChannelStore, 'byId'>;
  activities: Pick<ActivityStore, 'record'>;
  events: Pick<EventBus, 'on'>;
}

export interface SipRealtime {
  talk: Talk;
  floor: Pick<Floor, 'holder'>;
  media: MediaPlanes;
  emitTo: EmitTo;
}

/** How often this instance reads which of its calls must end (an administrator's hang-up, a gateway changed). */
const END_CHECK_MS = 1_000;
/** How often a call holding the floor checks it still does (a time limit or a preemption took it back). */
const HOLD_CHECK_MS = 500;

interface LiveCall {
  callId: string;
  gateway: SipGateway;
  channel: ChannelSummary;
  flow: Flow;
  session?: Core.Session;
  relay: RtpRelay;
  talker: Talker;
  place: TalkPlace;
  holding: boolean;
  /** Presses and releases run one after the other. */
  queue: Promise<unknown>;
  ended: boolean;
  timers: NodeJS.Timeout[];
  vad?: ReturnType<typeof voiceActivity>;
}

/** A SIP INFO's DTMF key (application/dtmf-relay's `Signal=`, or application/dtmf's body). */
function infoKey(request: Core.IncomingRequestMessage): string | undefined {
  const type = (request.getHeader('content-type') ?? '').toLowerCase();
  const body = request.body ?? '';
  if (type.startsWith('application/dtmf-relay')) return /^\s*Signal\s*=\s*([0-9*#A-D])/im.exec(body)?.[1];
  if (type.startsWith('application/dtmf')) return /^\s*([0-9*#A-D])/.exec(body)?.[1];
  return undefined;
}

export async function startSip(deps: {
  config: SipConfig;
  instanceId: string;
  services: SipServices;
  realtime: SipRealtime;
  log: FastifyBaseLogger;
}) {
  const { config, instanceId, services, realtime } = deps;
  const log = deps.log.child({ part: 'sip' });
  const digest: DigestAuthority = digestAuthority(config.realm);
  const calls = new Map<string, LiveCall>();
  await services.gateways.clearInstance(instanceId);

  function refuse(
    request: Core.IncomingInviteRequest | Core.IncomingRegisterRequest,
    statusCode: number,
    audit: { reason: RefusalReason; login?: string; gateway?: SipGateway; number: string; flow: Flow },
  ): void {
    request.reject({ statusCode });
    void auditRefusedCall(services, {
      login: audit.login,
      gatewayId: audit.gateway?.id,
      gatewayName: audit.gateway?.name,
      number: audit.number,
      address: `${audit.flow.ip}:${audit.flow.port}`,
      reason: audit.reason,
    }).catch((error) => log.error({ err: error }, 'could not audit a refused SIP call'));
  }

  /** The gateway a request authenticates as, or undefined once it has been answered (challenged or refused). */
  async function authenticate(
    request: Core.IncomingInviteRequest | Core.IncomingRegisterRequest,
    flow: Flow,
    number: string,
  ): Promise<SipGateway | undefined> {
    const message = request.message;
    const credentials = readCredentials(message.getHeader('authorization') ?? message.getHeader('proxy-authorization'));
    if (!credentials) {
      request.reject({
        statusCode: 401,
        extraHeaders: digest.challenge().map((value) => `WWW-Authenticate: ${value}`),
      });
      return undefined;
    }
    const gateway = await services.gateways.byLogin(credentials.username);
    const verdict = gateway ? digest.verify(credentials, message.method, gateway) : 'wrong';
    if (verdict === 'stale') {
      request.reject({
        statusCode: 401,
        extraHeaders: digest.challenge(true).map((value) => `WWW-Authenticate: ${value}`),
      });
      return undefined;
    }
    if (!gateway || verdict === 'wrong') {
      refuse(request, 403, { reason: 'credentials', login: credentials.username, gateway, number, flow });
      return undefined;
    }
    if (!addressAllowed(gateway.allowedAddresses, flow.ip)) {
      refuse(request, 403, { reason: 'address', login: gateway.login, gateway, number, flow });
      return undefined;
    }
    return gateway;
  }

  /** Whether media may go to (and come from) this IP for the gateway: the caller's own, or one of its list. */
  const mediaAllowed = (gateway: SipGateway, flow: Flow) => (ip: string) =>
    ip === flow.ip || (gateway.allowedAddresses.length > 0 && addressAllowed(gateway.allowedAddresses, ip));

  function serial(call: LiveCall, work: () => Promise<void>): Promise<void> {
    const run = call.queue.catch(() => {}).then(work);
    call.queue = run;
    return run.catch((error) => log.error({ err: error, callId: call.callId }, 'a gateway floor change failed'));
  }

  function press(call: LiveCall): Promise<void> {
    return serial(call, async () => {
      if (call.ended || call.holding) return;
      const { answer, changes } = await realtime.talk.press(call.talker, call.place);
      if (!answer.granted) {
        call.vad?.reset();
        call.relay.busy();
        return;
      }
      call.holding = true;
      await realtime.talk.record(changes);
      await services.gateways.setTalking(call.callId, true);
      const check = setInterval(() => void stillHolds(call), HOLD_CHECK_MS);
      check.unref();
      call.timers.push(check);
    });
  }

  function release(call: LiveCall): Promise<void> {
    return serial(call, async () => {
      if (!call.holding) return;
      call.holding = false;
      const change = await realtime.talk.release(call.talker, call.place);
      await realtime.talk.record([change]);
      await services.gateways.setTalking(call.callId, false).catch(() => {});
    });
  }

  /** The floor was taken back (its time limit, a higher priority): the call follows, as a page's button does. */
  async function stillHolds(call: LiveCall): Promise<void> {
    if (!call.holding || call.ended) return;
    const holder = await realtime.floor.holder(call.channel.id).catch(() => undefined);
    if (holder?.socketId === call.talker.socketId) return;
    await serial(call, async () => {
      if (!call.holding) return;
      call.holding = false;
      call.vad?.reset();
      await services.gateways.setTalking(call.callId, false).catch(() => {});
    });
  }

  function peerOf(call: LiveCall): RoomPeer & { room: string } {
    return {
      id: call.talker.socketId,
      name: call.gateway.name,
      userId: call.gateway.userId,
      room: call.channel.rtcSession,
      mode: 'talk',
      gateway: { gatewayId: call.gateway.id, callId: call.callId },
    };
  }

  /** The call is over, whatever ended it: its floor, its media, its row, its place in the room. */
  async function end(call: LiveCall, why: string): Promise<void> {
    if (call.ended) return;
    call.ended = true;
    calls.delete(call.callId);
    for (const timer of call.timers) clearInterval(timer);
    log.info(
      { callId: call.callId, gateway: call.gateway.login, channelId: call.channel.id, why },
      'gateway call ended',
    );
    if (call.holding) {
      call.holding = false;
      const change = await realtime.talk.release(call.talker, call.place).catch(() => undefined);
      if (change) await realtime.talk.record([change]).catch(() => {});
    }
    await realtime.media
      .opened(call.channel.id)
      ?.remove(call.talker.socketId)
      .catch(() => {});
    call.relay.close();
    signalling.track(call.flow, -1);
    await services.gateways.closeCall(call.callId).catch(() => {});
    realtime.emitTo([channelRoom(call.channel.rtcSession)], 'user_exit', {
      id: call.talker.socketId,
      room: call.channel.rtcSession,
    });
    if (!call.channel.hidden)
      await services.activities
        .record('channel_leave', { userId: call.gateway.userId, channelId: call.channel.id })
        .catch(() => {});
  }

  /** Ends a call from our side: a BYE to the gateway, then the rest. */
  function hangUp(callId: string, why: string): void {
    const call = calls.get(callId);
    if (!call) return;
    try {
      call.session?.bye();
    } catch (error) {
      log.debug({ err: error, callId }, 'the BYE could not be sent');
    }
    void end(call, why);
  }

  async function invite(request: Core.IncomingInviteRequest, flow: Flow): Promise<void> {
    const message = request.message;
    const number = message.ruri?.user ?? '';
    const gateway = await authenticate(request, flow, number);
    if (!gateway) return;
    const channelId = channelIdOfNumber(number);
    const channel = channelId ? await services.channels.byId(channelId) : undefined;
    if (!channel || channel.hidden || channel.voiceMode === 'mesh') {
      refuse(request, 404, { reason: 'number', login: gateway.login, gateway, number, flow });
      return;
    }
    if (!gateway.channelIds.includes(channel.id)) {
      refuse(request, 403, { reason: 'channel', login: gateway.login, gateway, number, flow });
      return;
    }
    const callId = message.callId;
    if (calls.has(callId)) return;
    let offer: ReturnType<typeof readOffer>;
    try {
      offer = readOffer(message.body ?? '');
    } catch (error) {
      if (!(error instanceof OfferRefused)) throw error;
      request.reject({ statusCode: 488, reasonPhrase: 'Not Acceptable Here' });
      log.info({ gateway: gateway.login, why: error.message }, 'a gateway call was refused: its offer');
      return;
    }
    const accepts = mediaAllowed(gateway, flow);
    if (!accepts(offer.ip)) {
      refuse(request, 488, { reason: 'address', login: gateway.login, gateway, number, flow });
      return;
    }
    const socketId = gatewayPeerId(callId);
    const vad = gateway.floorMode === 'voice' ? voiceActivity(gateway) : undefined;
    // The relay's callbacks reach the call once it exists.
    let live: LiveCall | undefined;
    const relay = new RtpRelay({
      bindHost: config.host,
      publicAddress: config.publicAddress,
      ports: config.rtpPorts,
      codec: offer.codec,
      audioPt: offer.payloadType,
      eventPt: offer.eventPt,
      remote: { ip: offer.ip, port: offer.port },
      accepts,
      quietBetween: gateway.quietBetween,
      onVoice: (voiced, now) => {
        if (!live || !vad) return;
        const change = vad.frame(voiced, now);
        if (change === 'press') void press(live);
        else if (change === 'release') void release(live);
      },
      onKey: (key) => {
        if (live && gateway.floorMode === 'dtmf') keyPressed(live, key);
      },
    });
    const call: LiveCall = {
      callId,
      gateway,
      channel,
      flow,
      relay,
      talker: { userId: gateway.userId, name: gateway.name, role: gateway.priority, socketId },
      place: { channelId: channel.id, room: channel.rtcSession, mode: 'talk', mayTalk: true },
      holding: false,
      queue: Promise.resolve(),
      ended: false,
      timers: [],
      vad,
    };
    calls.set(callId, call);
    signalling.track(flow, 1);
    let cancelled = false;
    request.delegate = {
      onCancel: () => {
        cancelled = true;
        void end(call, 'cancelled');
      },
    };
    try {
      const ours = await relay.open();
      const janus = await realtime.media.joinRtp(
        channel,
        {
          socketId,
          userId: gateway.userId,
          name: gateway.name,
          mode: 'talk',
          lost: (reason) => hangUp(callId, reason),
        },
        { codec: offer.codec, payloadType: offer.payloadType, open: (host) => relay.openTowards(host) },
      );
      relay.connectJanus(janus);
      if (cancelled || call.ended) return;
      const answer = writeAnswer(offer, ours, Date.now());
      const accepted = request.accept({
        statusCode: 200,
        body: { contentDisposition: 'session', contentType: 'application/sdp', content: answer },
      });
      call.session = accepted.session;
      accepted.session.delegate = {
        onBye: (bye) => {
          bye.accept();
          void end(call, 'bye');
        },
        onInfo: (info) => {
          info.accept();
          const key = infoKey(info.message);
          if (key && gateway.floorMode === 'dtmf') keyPressed(call, key);
        },
        onAckTimeout: () => hangUp(callId, 'no ACK'),
      };
      live = call;
      await services.gateways.openCall({
        callId,
        gatewayId: gateway.id,
        userId: gateway.userId,
        channelId: channel.id,
        instanceId,
        address: `${flow.ip}:${flow.port}`,
        transport: flow.transport,
        codec: offer.codec,
      });
      realtime.emitTo([channelRoom(channel.rtcSession)], 'user joined', peerOf(call));
      if (!channel.hidden)
        await services.activities.record('channel_join', {
          userId: gateway.userId,
          channelId: channel.id,
          channelName: channel.name,
        });
      if (vad) {
        const tick = setInterval(() => {
          const change = vad.tick(performance.now());
          if (change === 'release') void release(call);
        }, 100);
        tick.unref();
        call.timers.push(tick);
      }
      log.info({ callId, gateway: gateway.login, channelId: channel.id, codec: offer.codec }, 'gateway call answered');
    } catch (error) {
      await end(call, 'failed');
      if (cancelled) return;
      if (error instanceof MediaUnavailableError) {
        request.reject({ statusCode: 480, reasonPhrase: 'Media Server Unavailable' });
        return;
      }
      log.error({ err: error, callId, gateway: gateway.login }, 'a gateway call could not join its channel');
      try {
        request.reject({ statusCode: 500 });
      } catch {}
    }
  }

  function keyPressed(call: LiveCall, key: string): void {
    if (key === '*') void press(call);
    else if (key === '#') void release(call);
  }

  async function register(request: Core.IncomingRegisterRequest, flow: Flow): Promise<void> {
    const gateway = await authenticate(request, flow, 'REGISTER');
    if (!gateway) return;
    // No REGISTER is needed (calls are authenticated on their INVITE), but a gateway that insists on registering
    // is answered yes, for the time it asked (at most an hour).
    const asked = Number(request.message.getHeader('expires') ?? 3600);
    const expires = Number.isFinite(asked) ? Math.min(Math.max(asked, 0), 3600) : 3600;
    const contact = request.message.getHeader('contact');
    request.accept({
      statusCode: 200,
      extraHeaders: [`Expires: ${expires}`, ...(contact && contact !== '*' ? [`Contact: ${contact}`] : [])],
    });
  }

  const signalling: Signalling = await startSignalling(
    {
      host: config.host,
      port: config.port,
      publicAddress: config.publicAddress,
      requestsPerMinute: config.requestsPerMinute,
      log,
    },
    {
      invite: (request, flow) =>
        void invite(request, flow).catch((error) => log.error({ err: error }, 'a SIP INVITE failed')),
      register: (request, flow) =>
        void register(request, flow).catch((error) => log.error({ err: error }, 'a SIP REGISTER failed')),
      limited: (flow, method, number) => {
        log.warn({ address: flow.ip, method }, 'SIP requests from this address are over their rate: 503 for a minute');
        void auditRefusedCall(services, {
          number,
          address: `${flow.ip}:${flow.port}`,
          reason: 'rate',
        }).catch(() => {});
      },
    },
  );

  /** Ends this instance's calls that an administrator hung up, or whose gateway changed or is gone. */
  let checking = false;
  async function checkEnds(): Promise<void> {
    if (checking || calls.size === 0) return;
    checking = true;
    try {
      for (const callId of await services.gateways.toEnd(instanceId, [...calls.keys()]))
        hangUp(callId, 'ended by an administrator or a gateway change');
    } catch (error) {
      log.warn({ err: error }, 'could not read which gateway calls must end');
    } finally {
      checking = false;
    }
  }
  const endCheck = setInterval(() => void checkEnds(), END_CHECK_MS);
  endCheck.unref();
  const unsubscribe = services.events.on('gatewaysChanged', () => void checkEnds());

  log.info(
    { port: signalling.port, host: config.host, rtpPorts: config.rtpPorts },
    `SIP gateways: listening on ${config.host}:${signalling.port} (UDP and TCP)`,
  );

  return {
    port: signalling.port,
    /** The Call-IDs of the calls this instance holds now (tests, bench). */
    callIds: () => [...calls.keys()],
    relayOf: (callId: string) => calls.get(callId)?.relay,
    async stop(): Promise<void> {
      clearInterval(endCheck);
      unsubscribe();
      for (const callId of [...calls.keys()]) hangUp(callId, 'the server stops');
      await signalling.stop();
    },
  };
}

export type SipServer = Awaited<ReturnType<typeof startSip>>;
