/**
 * The order of a page's two connections with the media server (late entry, issue 37): the channel's voice is
 * answered before the microphone is published, however often the channel is joined meanwhile.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { FakePeerConnection } from './fakePeerConnection.ts';
import { ServerTransport } from './serverTransport.ts';
import type { SignalClient } from './signalClient.ts';

function answerLater<T>() {
  let resolve: (value: T) => void = () => {};
  const promise = new Promise<T>((done) => {
    resolve = done;
  });
  return { promise, resolve };
}

const track = { kind: 'audio', enabled: false, stop: vi.fn() };
const microphone = { getAudioTracks: () => [track], getTracks: () => [track] } as unknown as MediaStream;

beforeEach(() => {
  FakePeerConnection.all = [];
  vi.stubGlobal('RTCPeerConnection', FakePeerConnection);
});
afterEach(() => {
  vi.unstubAllGlobals();
});

describe('a page through the media server', () => {
  it('publishes its microphone only once the channel’s voice is answered, even when the channel is joined twice', async () => {
    const asked: string[] = [];
    const watched = answerLater<{ success: true; sdp: string }>();
    const answered = answerLater<{ success: boolean }>();
    const signal = {
      connected: true,
      room: 'Alpha',
      selfId: 'self',
      on: () => () => {},
      mediaWatch: () => {
        asked.push('media_watch');
        return watched.promise;
      },
      mediaAnswer: () => {
        asked.push('media_answer');
        return answered.promise;
      },
      mediaOffer: async () => {
        asked.push('media_offer');
        return { success: true, sdp: 'server-answer' };
      },
      mediaCandidate: () => {},
    } as unknown as SignalClient;
    const transport = new ServerTransport({ signal, iceServers: [] });
    transport.join(microphone);
    transport.channelJoined();
    // The server says again that the page is in the channel (its media kind confirmed) before Janus answered.
    transport.channelJoined();
    await vi.waitFor(() => expect(asked).toEqual(['media_watch']));

    watched.resolve({ success: true, sdp: 'server-offer' });
    await vi.waitFor(() => expect(asked).toEqual(['media_watch', 'media_answer']));
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(asked).toEqual(['media_watch', 'media_answer']);

    answered.resolve({ success: true });
    await vi.waitFor(() => expect(asked).toEqual(['media_watch', 'media_answer', 'media_offer']));
    // One connection each way, the receiving one first.
    expect(FakePeerConnection.all).toHaveLength(2);
    expect(FakePeerConnection.all[0].remoteDescription).toEqual({ type: 'offer', sdp: 'server-offer' });
    expect(FakePeerConnection.all[1].remoteDescription).toEqual({ type: 'answer', sdp: 'server-answer' });
    transport.leave();
  });
});
