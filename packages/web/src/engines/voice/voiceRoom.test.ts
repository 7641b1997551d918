/**
 * The voice room's signalling and push-to-talk reporting, with a recorded socket and stand-ins for the
 * browser's media and peer connections (the browser tests run the real ones: e2e/room-voice.spec.ts).
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { FakePeerConnection } from './fakePeerConnection.ts';
import { type RoomSocket, VoiceRoom } from './voiceRoom.ts';

type Handler = (...args: unknown[]) => unknown;

function recordedSocket(floorAnswer: unknown = { granted: true }) {
  const handlers = new Map<string, Handler[]>();
  const sent: Array<[string, unknown]> = [];
  const socket = {
    id: 'self',
    connected: true,
    on(event: string, handler: Handler) {
      handlers.set(event, [...(handlers.get(event) ?? []), handler]);
      return socket;
    },
    off(event: string, handler: Handler) {
      handlers.set(
        event,
        (handlers.get(event) ?? []).filter((h) => h !== handler),
      );
      return socket;
    },
    emit(event: string, payload: unknown, ack?: (answer: unknown) => void) {
      sent.push([event, payload]);
      // The server answers a floor request at once (a free floor by default).
      if (event === 'floor_request') ack?.(floorAnswer);
      return socket;
    },
  };
  return {
    socket: socket as unknown as RoomSocket,
    sent,
    /** Delivers a server event and waits for its handlers. */
    async receive(event: string, payload: unknown) {
      await Promise.all((handlers.get(event) ?? []).map((handler) => handler(payload)));
    },
    sentOf: (event: string) => sent.filter(([name]) => name === event).map(([, payload]) => payload),
  };
}

const track = { kind: 'audio', enabled: true, stop: vi.fn() };
const stream = { getAudioTracks: () => [track], getVideoTracks: () => [], getTracks: () => [track] };

beforeEach(() => {
  track.enabled = true;
  FakePeerConnection.all = [];
  vi.stubGlobal('RTCPeerConnection', FakePeerConnection);
  vi.stubGlobal('navigator', { mediaDevices: { getUserMedia: vi.fn(async () => stream) } });
});
afterEach(() => {
  vi.unstubAllGlobals();
});

function deferred() {
  let resolve: () => void = () => {};
  const promise = new Promise<void>((done) => {
    resolve = done;
  });
  return { promise, resolve };
}

describe('voice room', () => {
  it('takes the microphone muted, then joins the room with the user name', async () => {
    const io = recordedSocket();
    const room = new VoiceRoom({ socket: io.socket, room: 'Alpha', name: 'Ada', iceServers: [] });
    await room.start();
    expect(track.enabled).toBe(false);
    expect(io.sentOf('join_room')).toEqual([{ room: 'Alpha', name: 'Ada', mode: 'talk' }]);
    expect(room.getSnapshot()).toMatchObject({ joined: true, micReady: true, micOn: false });
  });

  it('as the newcomer offers to every peer already there, with the ICE servers of the configuration', async () => {
    const io = recordedSocket();
    const iceServers = [{ urls: 'stun:stun.example.org' }];
    const room = new VoiceRoom({ socket: io.socket, room: 'Alpha', name: 'Ada', iceServers });
    await room.start();
    await io.receive('all_users', [
      { id: 'b', name: 'Bea', userId: 2 },
      { id: 'c', name: 'Cal', userId: 3 },
    ]);
    await vi.waitFor(() => expect(io.sentOf('offer')).toHaveLength(2));
    expect(io.sentOf('offer')).toEqual([
      {
        sdp: { type: 'offer', sdp: 'offer-sdp' },
        offerSendID: 'self',
        offerSendName: 'Ada',
        offerReceiveID: 'b',
        room: 'Alpha',
      },
      {
        sdp: { type: 'offer', sdp: 'offer-sdp' },
        offerSendID: 'self',
        offerSendName: 'Ada',
        offerReceiveID: 'c',
        room: 'Alpha',
      },
    ]);
    expect(FakePeerConnection.all.map((pc) => pc.config)).toEqual([{ iceServers }, { iceServers }]);
    expect(FakePeerConnection.all[0].added).toEqual([track]);
    expect(room.getSnapshot().peers.map((peer) => peer.name)).toEqual(['Bea', 'Cal']);

    // The answer completes the exchange; a candidate that came before it was kept until then.
    await io.receive('getCandidate', { candidate: { candidate: 'c1' }, candidateSendID: 'b' });
    await io.receive('getAnswer', { sdp: { type: 'answer', sdp: 'x' }, answerSendID: 'b' });
    expect(FakePeerConnection.all[0].remoteDescription).toEqual({ type: 'answer', sdp: 'x' });
    expect(FakePeerConnection.all[0].candidates).toEqual([{ candidate: 'c1' }]);
  });

  it("never offers to a SIP gateway's call among the peers, whether listed at the join or arriving after", async () => {
    const io = recordedSocket();
    const room = new VoiceRoom({ socket: io.socket, room: 'Alpha', name: 'Ada', iceServers: [] });
    await room.start();
    const radio = { id: 'sip:abc@192.0.2.10', name: 'Radio Quai', userId: 9, gateway: { gatewayId: 1, callId: 'abc' } };
    await io.receive('all_users', [radio, { id: 'b', name: 'Bea', userId: 2 }]);
    await vi.waitFor(() => expect(io.sentOf('offer')).toHaveLength(1));
    expect(io.sentOf('offer')).toMatchObject([{ offerReceiveID: 'b' }]);
    // One that lost its mark on the way is known by its id's form.
    await io.receive('user joined', { id: 'sip:def', name: 'Desk phone', userId: 10 });
    await io.receive('all_users', [{ id: 'sip:ghi', name: 'Radio Port', userId: 11 }]);
    expect(FakePeerConnection.all).toHaveLength(1);
    expect(io.sentOf('offer')).toHaveLength(1);
    expect(room.getSnapshot().peers.map((peer) => peer.id)).toEqual(['b']);
  });

  it('answers an offer from a newcomer, and closes the connection when that peer exits', async () => {
    const io = recordedSocket();
    const room = new VoiceRoom({ socket: io.socket, room: 'Alpha', name: 'Ada', iceServers: [] });
    await room.start();
    await io.receive('user joined', { id: 'd', name: 'Dan', userId: 4 });
    await io.receive('getOffer', { sdp: { type: 'offer', sdp: 'o' }, offerSendID: 'd', offerSendName: 'Dan' });
    expect(io.sentOf('answer')).toEqual([
      { sdp: { type: 'answer', sdp: 'answer-sdp' }, answerSendID: 'self', answerReceiveID: 'd', room: 'Alpha' },
    ]);
    expect(room.getSnapshot().peers).toMatchObject([{ id: 'd', name: 'Dan', userId: 4 }]);

    await io.receive('onMicStateChanged', { id: 'd', micState: true, room: 'Alpha' });
    expect(room.getSnapshot().peers[0].talking).toBe(true);

    await io.receive('user_exit', { id: 'd' });
    expect(FakePeerConnection.all[0].closed).toBe(true);
    expect(room.getSnapshot().peers).toEqual([]);
  });

  it('talks once the floor is granted, reports each mic change, and frees the floor again when an HTTP report lands late', async () => {
    const io = recordedSocket();
    const reports: boolean[] = [];
    const pending: Array<() => void> = [];
    const room = new VoiceRoom({
      socket: io.socket,
      room: 'Alpha',
      name: 'Ada',
      iceServers: [],
      reportMicState: (on) => {
        reports.push(on);
        const wait = deferred();
        pending.push(wait.resolve);
        return wait.promise;
      },
    });
    await room.start();

    // A press asks for the floor; the track is enabled once it is granted.
    room.setMicEnabled(true);
    await vi.waitFor(() => expect(track.enabled).toBe(true));
    room.setMicEnabled(false);
    expect(track.enabled).toBe(false);
    expect(io.sent.filter(([name]) => name.startsWith('floor_'))).toEqual([
      ['floor_request', { room: 'Alpha' }],
      ['floor_release', { room: 'Alpha' }],
    ]);
    // The "on" report is still on its way: the "off" waits for it rather than racing it.
    expect(reports).toEqual([true]);

    pending[0]();
    await vi.waitFor(() => expect(reports).toEqual([true, false]));
    // The late "on" may have reached the others after the socket's "off": the socket frees the floor again.
    expect(io.sentOf('floor_release')).toEqual([{ room: 'Alpha' }, { room: 'Alpha' }]);
    pending[1]();
  });

  it('without a microphone says why, joins receive-only and ignores presses', async () => {
    vi.stubGlobal('navigator', {
      mediaDevices: { getUserMedia: vi.fn(async () => Promise.reject(new DOMException('no', 'NotAllowedError'))) },
    });
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    const io = recordedSocket();
    const room = new VoiceRoom({ socket: io.socket, room: 'Alpha', name: 'Ada', iceServers: [] });
    await room.start();
    expect(room.getSnapshot()).toMatchObject({ mediaProblem: 'denied', micReady: false, joined: true });
    room.setMicEnabled(true);
    expect(io.sentOf('floor_request')).toEqual([]);

    await io.receive('all_users', [{ id: 'b', name: 'Bea', userId: 2 }]);
    await vi.waitFor(() => expect(io.sentOf('offer')).toHaveLength(1));
    expect(FakePeerConnection.all[0].added).toEqual([{ kind: 'audio', init: { direction: 'recvonly' } }]);
  });

  it('settles two offers crossing each other: the greater socket id answers, the other waits for its answer', async () => {
    const io = recordedSocket();
    const room = new VoiceRoom({ socket: io.socket, room: 'Alpha', name: 'Ada', iceServers: [] });
    await room.start();
    // 'self' < 'zed': this side keeps its offer and ignores the one that crossed it.
    await io.receive('all_users', [{ id: 'zed', name: 'Zed', userId: 9 }]);
    await vi.waitFor(() => expect(io.sentOf('offer')).toHaveLength(1));
    await io.receive('getOffer', { sdp: { type: 'offer', sdp: 'z' }, offerSendID: 'zed', offerSendName: 'Zed' });
    expect(io.sentOf('answer')).toEqual([]);
    expect(FakePeerConnection.all.map((pc) => pc.closed)).toEqual([false]);

    // 'self' > 'abe': this side drops its offer and answers.
    await io.receive('all_users', [{ id: 'abe', name: 'Abe', userId: 8 }]);
    await vi.waitFor(() => expect(io.sentOf('offer')).toHaveLength(2));
    await io.receive('getOffer', { sdp: { type: 'offer', sdp: 'a' }, offerSendID: 'abe', offerSendName: 'Abe' });
    expect(io.sentOf('answer')).toMatchObject([{ answerReceiveID: 'abe' }]);
    expect(FakePeerConnection.all.map((pc) => pc.closed)).toEqual([false, true, false]);
  });

  it('keeps the track off and names the holder when the floor is refused, and stops talking when it is taken back', async () => {
    const busy = recordedSocket({ granted: false, holder: { userId: 4, name: 'Bea Holder' } });
    const refused = new VoiceRoom({
      socket: busy.socket,
      room: 'Alpha',
      name: 'Ada',
      iceServers: [],
      linkTones: false,
    });
    await refused.start();
    refused.setMicEnabled(true);
    await vi.waitFor(() => expect(refused.getSnapshot().floorHolder).toBe('Bea Holder'));
    expect(track.enabled).toBe(false);
    expect(refused.getSnapshot().micOn).toBe(false);
    refused.setMicEnabled(false);
    expect(refused.getSnapshot().floorHolder).toBeNull();
    refused.leave();

    const io = recordedSocket();
    const room = new VoiceRoom({ socket: io.socket, room: 'Alpha', name: 'Ada', iceServers: [], linkTones: false });
    await room.start();
    room.setMicEnabled(true);
    await vi.waitFor(() => expect(room.getSnapshot().micOn).toBe(true));
    await io.receive('floor_revoked', { room: 'Alpha', reason: 'preempted' });
    expect(track.enabled).toBe(false);
    expect(room.getSnapshot().micOn).toBe(false);
  });

  it('opens the microphone without a press when the server grants an emergency floor, and closes it when taken back', async () => {
    const io = recordedSocket();
    const room = new VoiceRoom({ socket: io.socket, room: 'Alpha', name: 'Ada', iceServers: [], linkTones: false });
    await room.start();
    // Another room's grant changes nothing here.
    await io.receive('floor_granted', { room: 'Beta', reason: 'emergency', holdMs: 10_000 });
    expect(track.enabled).toBe(false);
    await io.receive('floor_granted', { room: 'Alpha', reason: 'emergency', holdMs: 10_000 });
    expect(track.enabled).toBe(true);
    expect(room.getSnapshot().micOn).toBe(true);
    await io.receive('floor_revoked', { room: 'Alpha', reason: 'timeout' });
    expect(track.enabled).toBe(false);
    expect(room.getSnapshot().micOn).toBe(false);
    room.leave();
  });
  it('in listen mode takes no microphone, joins to listen, offers to talkers only and never asks for the floor', async () => {
    const getUserMedia = vi.fn(async () => stream);
    vi.stubGlobal('navigator', { mediaDevices: { getUserMedia } });
    const io = recordedSocket();
    const room = new VoiceRoom({ socket: io.socket, room: 'Bravo', mode: 'listen', name: 'Ada', iceServers: [] });
    await room.start();
    expect(getUserMedia).not.toHaveBeenCalled();
    expect(io.sentOf('join_room')).toEqual([{ room: 'Bravo', name: 'Ada', mode: 'listen' }]);
    await io.receive('all_users', [
      { id: 'b', name: 'Bea', userId: 2, room: 'Bravo', mode: 'talk' },
      { id: 'l', name: 'Lou', userId: 5, room: 'Bravo', mode: 'listen' },
    ]);
    await vi.waitFor(() => expect(io.sentOf('offer')).toHaveLength(1));
    expect(io.sentOf('offer')).toMatchObject([{ offerReceiveID: 'b', room: 'Bravo' }]);
    expect(FakePeerConnection.all[0].added).toEqual([{ kind: 'audio', init: { direction: 'recvonly' } }]);
    room.setMicEnabled(true);
    expect(io.sentOf('floor_request')).toEqual([]);
    expect(room.getSnapshot()).toMatchObject({ mode: 'listen', micReady: false });
    room.leave();
    expect(io.sentOf('leave_room')).toEqual([{ room: 'Bravo' }]);
  });

  it("hears only its own channel's events on a socket shared with other channels", async () => {
    const io = recordedSocket();
    const room = new VoiceRoom({ socket: io.socket, room: 'Alpha', name: 'Ada', iceServers: [] });
    await room.start();
    // Another channel's peers, offers and mic states go to that channel's room, not this one.
    await io.receive('all_users', [{ id: 'x', name: 'Xan', userId: 7, room: 'Bravo', mode: 'talk' }]);
    await io.receive('getOffer', {
      sdp: { type: 'offer', sdp: 'o' },
      offerSendID: 'y',
      offerSendName: 'Yas',
      room: 'Bravo',
    });
    expect(io.sentOf('offer')).toEqual([]);
    expect(io.sentOf('answer')).toEqual([]);
    expect(room.getSnapshot().peers).toEqual([]);

    await io.receive('getOffer', {
      sdp: { type: 'offer', sdp: 'o' },
      offerSendID: 'd',
      offerSendName: 'Dan',
      room: 'Alpha',
    });
    await io.receive('onMicStateChanged', { id: 'd', micState: true, room: 'Bravo' });
    expect(room.getSnapshot().peers).toMatchObject([{ id: 'd', talking: false }]);
    await io.receive('onMicStateChanged', { id: 'd', micState: true, room: 'Alpha' });
    expect(room.getSnapshot().peers).toMatchObject([{ id: 'd', talking: true }]);
    // A peer leaving another channel stays here.
    await io.receive('user_exit', { id: 'd', room: 'Bravo' });
    expect(room.getSnapshot().peers).toHaveLength(1);
    await io.receive('user_exit', { id: 'd', room: 'Alpha' });
    expect(room.getSnapshot().peers).toEqual([]);
  });
});
