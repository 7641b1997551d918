/**
 * A gateway's call and its floor (issue 51): what gateway-calls.ts keeps of each call, and its presses and
 * releases. A gateway presses and releases like a page, through the same push-to-talk (floor/push-to-talk.ts),
 * as the user it talks as and with its own priority: its voice activity or its DTMF (`*` takes, `#` gives back)
 * decides when. A refused press plays the busy tone; a floor taken back (its time limit, a higher priority) is
 * noticed within half a second, and the gateway must let go (be quiet for the hang time, or press `*` again)
 * before it asks again, as a page's button must be released.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { Core } from 'sip.js';
import type { ChannelSummary } from '../channels/store.ts';
import type { Floor } from '../floor/grants.ts';
import type { Talk, Talker, TalkPlace } from '../floor/push-to-talk.ts';
import type { GatewayStore, SipGateway } from '../gateways/store.ts';
import type { RtpRelay } from './rtp-relay.ts';
import type { Flow } from './signalling.ts';

/** How often a call holding the floor checks it still does. */
const HOLD_CHECK_MS = 500;

export interface LiveCall {
  callId: string;
  gateway: SipGateway;
  channel: ChannelSummary;
  flow: Flow;
  codec: string;
  session?: Core.Session;
  relay: RtpRelay;
  talker: Talker;
  place: TalkPlace;
  holding: boolean;
  /** Presses and releases run one after the other. */
  queue: Promise<unknown>;
  ended: boolean;
  holdCheck?: NodeJS.Timeout;
}

/** A SIP INFO's DTMF key (application/dtmf-relay's `Signal=`, or application/dtmf's body). */
export function infoKey(request: Core.IncomingRequestMessage): string | undefined {
  const type = (request.getHeader('content-type') ?? '').toLowerCase();
  const body = request.body ?? '';
  if (type.startsWith('application/dtmf-relay')) return /^\s*Signal\s*=\s*([0-9*#A-D])/im.exec(body)?.[1];
  if (type.startsWith('application/dtmf')) return /^\s*([0-9*#A-D])/.exec(body)?.[1];
  return undefined;
}

export function callFloor(deps: {
  talk: Talk;
  floor: Pick<Floor, 'holder'>;
  gateways: Pick<GatewayStore, 'setTalking'>;
  log: FastifyBaseLogger;
}) {
  const { talk, floor, gateways, log } = deps;

  function serial(call: LiveCall, work: () => Promise<void>): Promise<void> {
    const run = call.queue.catch(() => {}).then(work);
    call.queue = run;
    return run.catch((error) => log.error({ err: error, callId: call.callId }, 'a gateway floor change failed'));
  }

  /** No longer holding (released, taken back, ended): its check stops and its row says so. */
  async function letGo(call: LiveCall): Promise<void> {
    call.holding = false;
    clearInterval(call.holdCheck);
    call.holdCheck = undefined;
    await gateways.setTalking(call.callId, false).catch(() => {});
  }

  /** The floor was taken back (its time limit, a higher priority): the call follows, as a page's button does. */
  async function stillHolds(call: LiveCall): Promise<void> {
    if (!call.holding || call.ended) return;
    const holder = await floor.holder(call.channel.id).catch(() => undefined);
    if (holder?.socketId === call.talker.socketId) return;
    await serial(call, async () => {
      if (!call.holding) return;
      call.relay.resetVoice();
      await letGo(call);
    });
  }

  const ops = {
    press(call: LiveCall): Promise<void> {
      return serial(call, async () => {
        if (call.ended || call.holding) return;
        const { answer, changes } = await talk.press(call.talker, call.place);
        if (!answer.granted) {
          call.relay.resetVoice();
          call.relay.busy();
          return;
        }
        call.holding = true;
        await talk.record(changes);
        await gateways.setTalking(call.callId, true);
        call.holdCheck = setInterval(() => void stillHolds(call), HOLD_CHECK_MS);
        call.holdCheck.unref();
      });
    },

    release(call: LiveCall): Promise<void> {
      return serial(call, async () => {
        if (!call.holding) return;
        await letGo(call);
        const change = await talk.release(call.talker, call.place);
        await talk.record([change]);
      });
    },

    /** A DTMF key of a gateway in DTMF mode. */
    key(call: LiveCall, key: string): void {
      if (call.gateway.floorMode !== 'dtmf') return;
      if (key === '*') void ops.press(call);
      else if (key === '#') void ops.release(call);
    },

    /** The call ended while holding: the floor goes back (once its queue is done). */
    async end(call: LiveCall): Promise<void> {
      clearInterval(call.holdCheck);
      await call.queue.catch(() => {});
      if (!call.holding) return;
      await letGo(call);
      const change = await talk.release(call.talker, call.place).catch(() => undefined);
      if (change) await talk.record([change]).catch(() => {});
    },
  };
  return ops;
}

export type CallFloor = ReturnType<typeof callFloor>;
