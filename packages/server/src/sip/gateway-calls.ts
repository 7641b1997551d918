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
import { gatewayPeerId, type RoomPeer } from '@talkgroup/protocol';
import type { FastifyBaseLogger } from 'fastify';
import type { Core } from 'sip.js';
import type { ActivityStore } from '../activities/store.ts';
import type { AuditStore } from '../audit/store.ts';
import type { ChannelStore, ChannelSummary } from '../channels/store.ts';
import type { SipConfig } from '../config/sip.ts';
import type { EventBus } from '../events.ts';
import type { Floor } from '../floor/grants.ts';
import type { Talk } from '../floor/push-to-talk.ts';
import { auditRefusedCall } from '../gateways/routes.ts';
import { type GatewayStore, maxCalls, type SipGateway } from '../gateways/store.ts';
import type { Faults } from '../process/faults.ts';
import { type MediaPlanes, MediaUnavailableError } from '../realtime/media/plane.ts';
import type { EmitTo } from '../sockets/io.ts';
import { channelRoom } from '../sockets/room-names.ts';
import { admission } from './admission.ts';
import { callFloor, infoKey, type LiveCall } from './call-floor.ts';
import { digestAuthority } from './digest.ts';
import { relayThreads } from './relay-threads.ts';
import { PortsExhausted, RtpRelay } from './rtp-relay.ts';
import { type OfferedAudio, OfferRefused, readOffer, writeAnswer } from './sdp.ts';
import { type Flow, type Signalling, startSignalling } from './signalling.ts';

export interface SipServices {
  gateways: GatewayStore;
  audit: AuditStore;
  channels: Pick<ChannelStore, 'byId'>;
  activities: Pick<ActivityStore, 'record'>;
  events: Pick<EventBus, 'on'>;
  faults: Faults;
}

export interface SipRealtime {
  talk: Talk;
  floor: Pick<Floor, 'holder'>;
  media: MediaPlanes;
  emitTo: EmitTo;
}

/** How often this instance reads which of its calls must end (an administrator's hang-up, a gateway changed). */
const END_CHECK_MS = 1_000;

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

export async function startSip(deps: {
  config: SipConfig;
  instanceId: string;
  services: SipServices;
  realtime: SipRealtime;
  log: FastifyBaseLogger;
}) {
  const { config, instanceId, services, realtime } = deps;
  const { faults } = services;
  const log = deps.log.child({ part: 'sip' });
  const admit = admission({ digest: digestAuthority(config.realm), services, log });
  const floor = callFloor({ talk: realtime.talk, floor: realtime.floor, gateways: services.gateways, log });
  const calls = new Map<string, LiveCall>();
  /** Every call's packets, voice activity and codec run on these (relay-threads.ts), never on this thread. */
  const relays = relayThreads();
  await services.gateways.clearInstance(instanceId);

  /** The call is over, whatever ended it: its floor, its media, its row, its place in the room. */
  async function end(call: LiveCall, why: string): Promise<void> {
    if (call.ended) return;
    call.ended = true;
    calls.delete(call.callId);
    log.info(
      { callId: call.callId, gateway: call.gateway.login, channelId: call.channel.id, why },
      'gateway call ended',
    );
    await floor.end(call);
    await realtime.media
      .opened(call.channel.id)
      ?.remove(call.talker.socketId)
      .catch(() => {});
    call.relay.close();
    signalling.track(call.flow, -1);
    if (!call.session) return;
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

  /** A call being set up: its relay (bound to the address checks of its gateway) and its floor's state. */
  function newCall(
    request: Core.IncomingInviteRequest,
    flow: Flow,
    gateway: SipGateway,
    channel: ChannelSummary,
    offer: OfferedAudio,
  ): LiveCall {
    const callId = request.message.callId;
    const call: LiveCall = {
      callId,
      gateway,
      channel,
      flow,
      codec: offer.codec,
      relay: new RtpRelay({
        threads: relays,
        bindHost: config.host,
        publicAddress: config.publicAddress,
        ports: config.rtpPorts,
        codec: offer.codec,
        audioPt: offer.payloadType,
        eventPt: offer.eventPt,
        remote: { ip: offer.ip, port: offer.port },
        // The same addresses as admit.mediaAllowed's, as data for the relay's thread.
        addresses: { ip: flow.ip, allowed: gateway.allowedAddresses },
        quietBetween: gateway.quietBetween,
        voice: gateway.floorMode === 'voice' ? { attackMs: gateway.attackMs, hangMs: gateway.hangMs } : undefined,
        onVoice: (change) => {
          if (!call.session) return;
          if (change === 'press') void floor.press(call);
          else void floor.release(call);
        },
        onKey: (key) => {
          if (call.session) floor.key(call, key);
        },
        fault: (error) => faults.fault('rtp_relay', error, { callId }),
        // A call being set up fails on its own (its relay's requests throw): an answered one is hung up.
        lost: (why) => {
          if (call.session) hangUp(callId, why);
        },
      }),
      talker: { userId: gateway.userId, name: gateway.name, role: gateway.priority, socketId: gatewayPeerId(callId) },
      place: { channelId: channel.id, room: channel.rtcSession, mode: 'talk', mayTalk: true },
      holding: false,
      queue: Promise.resolve(),
      ended: false,
    };
    return call;
  }

  /** Joins the call to the channel's media, answers the INVITE and shows the gateway in the channel. */
  async function connect(call: LiveCall, request: Core.IncomingInviteRequest, offer: OfferedAudio): Promise<void> {
    const { gateway, channel, callId, relay } = call;
    const ours = await relay.open();
    const janus = await realtime.media.joinRtp(
      channel,
      {
        socketId: call.talker.socketId,
        userId: gateway.userId,
        name: gateway.name,
        mode: 'talk',
        lost: (why) => hangUp(callId, why),
      },
      { ...relay.janusLeg, open: (host) => relay.openTowards(host) },
    );
    relay.connectJanus(janus);
    if (call.ended) return;
    const accepted = request.accept({
      statusCode: 200,
      body: {
        contentDisposition: 'session',
        contentType: 'application/sdp',
        content: writeAnswer(offer, ours, Date.now()),
      },
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
        if (key) floor.key(call, key);
      },
      onAckTimeout: () => hangUp(callId, 'no ACK'),
    };
    await services.gateways.openCall({
      callId,
      gatewayId: gateway.id,
      userId: gateway.userId,
      channelId: channel.id,
      instanceId,
      address: `${call.flow.ip}:${call.flow.port}`,
      transport: call.flow.transport,
      codec: offer.codec,
    });
    realtime.emitTo([channelRoom(channel.rtcSession)], 'user joined', peerOf(call));
    if (!channel.hidden)
      await services.activities.record('channel_join', {
        userId: gateway.userId,
        channelId: channel.id,
        channelName: channel.name,
      });
    log.info({ callId, gateway: gateway.login, channelId: channel.id, codec: offer.codec }, 'gateway call answered');
  }

  async function invite(request: Core.IncomingInviteRequest, flow: Flow): Promise<void> {
    const number = request.message.ruri?.user ?? '';
    const gateway = await admit.authenticate(request, flow, number);
    if (!gateway) return;
    const channel = await admit.channelFor(request, flow, gateway, number);
    if (!channel) return;
    // A new INVITE (a new transaction) with the Call-ID of a call already here: a loop or a forgery (482).
    if (calls.has(request.message.callId)) {
      request.reject({ statusCode: 482, reasonPhrase: 'Loop Detected' });
      return;
    }
    let offer: OfferedAudio;
    try {
      offer = readOffer(request.message.body ?? '');
    } catch (error) {
      if (!(error instanceof OfferRefused)) throw error;
      admit.refuse(request, 488, { reason: 'media', login: gateway.login, gateway, number, flow });
      log.info({ gateway: gateway.login, why: error.message }, 'a gateway call was refused: its offer');
      return;
    }
    if (!admit.mediaAllowed(gateway, flow)(offer.ip)) {
      admit.refuse(request, 488, { reason: 'address', login: gateway.login, gateway, number, flow });
      return;
    }
    // At most maxCalls at once per gateway (one per channel it may enter, or its "Simultaneous calls"): counted
    // and taken with no await between, so that two INVITEs at once cannot both pass.
    let held = 0;
    for (const live of calls.values()) if (live.gateway.id === gateway.id) held++;
    if (held >= maxCalls(gateway)) {
      admit.refuse(request, 486, { reason: 'busy', login: gateway.login, gateway, number, flow });
      return;
    }
    const call = newCall(request, flow, gateway, channel, offer);
    calls.set(call.callId, call);
    signalling.track(flow, 1);
    request.delegate = { onCancel: () => void end(call, 'cancelled') };
    try {
      await connect(call, request, offer);
    } catch (error) {
      const cancelled = call.ended;
      await end(call, 'failed');
      if (cancelled) return;
      if (error instanceof MediaUnavailableError) {
        request.reject({ statusCode: 480, reasonPhrase: 'Media Server Unavailable' });
        return;
      }
      if (error instanceof PortsExhausted) {
        log.warn({ callId: call.callId, gateway: gateway.login }, error.message);
        request.reject({ statusCode: 503, extraHeaders: ['Retry-After: 30'] });
        admit.refuse(request, 503, { reason: 'ports', login: gateway.login, gateway, number, flow }, false);
        return;
      }
      log.error(
        { err: error, callId: call.callId, gateway: gateway.login },
        'a gateway call could not join its channel',
      );
      try {
        request.reject({ statusCode: 500 });
      } catch {}
    }
  }

  async function register(request: Core.IncomingRegisterRequest, flow: Flow): Promise<void> {
    const gateway = await admit.authenticate(request, flow, 'REGISTER');
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
      fault: (error, context) => faults.fault('sip_message', error, context),
      tcpIdleMs: config.tcpIdleMs,
    },
    {
      invite: (request, flow) =>
        void invite(request, flow).catch((error) => faults.fault('sip_call', error, { method: 'INVITE' })),
      register: (request, flow) =>
        void register(request, flow).catch((error) => faults.fault('sip_call', error, { method: 'REGISTER' })),
      limited: (flow, method, number) => {
        log.warn({ address: flow.ip, method }, 'SIP requests from this address are over their rate: 503 for a minute');
        void auditRefusedCall(services, { number, address: `${flow.ip}:${flow.port}`, reason: 'rate' }).catch(() => {});
      },
    },
  );

  /** Ends this instance's calls that an administrator hung up, or whose gateway changed or is gone. */
  let checking = false;
  async function checkEnds(): Promise<void> {
    if (checking || calls.size === 0) return;
    checking = true;
    try {
      const answered = [...calls.values()].filter((call) => call.session).map((call) => call.callId);
      for (const callId of await services.gateways.toEnd(instanceId, answered))
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
    /** The relay's threads (tests). */
    relayThreads: relays,
    /** What the signalling holds now: flows, counted addresses, TCP connections (tests). */
    held: () => signalling.held(),
    async stop(): Promise<void> {
      clearInterval(endCheck);
      unsubscribe();
      for (const callId of [...calls.keys()]) hangUp(callId, 'the server stops');
      await signalling.stop();
      await relays.stop();
    },
  };
}

export type SipServer = Awaited<ReturnType<typeof startSip>>;
