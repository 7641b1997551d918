/**
 * The seed's own clients in a channel through the media server (issue 37): a page that speaks only the spec's
 * socket events (join_room without a mode, offer/answer/candidate to the peers of `all_users`, micStateChange)
 * sees the media server as one peer named as the channel, hears a member talking on the app's /talk page, and,
 * holding the floor through its mic event, is heard there. The spec client runs in a real Chromium page with
 * the Socket.IO client and the fake microphone, as the seed's browser would.
 */
import path from 'node:path';
import type { Page } from '@playwright/test';
import { chromiumLaunchOptions } from './chromium.ts';
import { expect as baseExpect, test } from './fixtures.ts';
import { janusDeployment, stopLeftovers, transportOf } from './media-servers.ts';
import { fakeMicrophoneArgs } from './room-audio.ts';
import {
  connectedPeer,
  expectSilence,
  expectToHear,
  measureSilence,
  openAs,
  type RoomPage,
  TONE_WAV,
} from './room-support.ts';

const expect = baseExpect.configure({ timeout: 60_000 });
const SOCKET_IO = path.resolve(import.meta.dirname, '../node_modules/socket.io-client/dist/socket.io.min.js');

test.use({ launchOptions: chromiumLaunchOptions(fakeMicrophoneArgs(TONE_WAV)) });
test.describe.configure({ timeout: 180_000 });
test.afterEach(stopLeftovers);

declare global {
  interface Window {
    io?: (url: string, options: unknown) => SpecSocket;
    __spec?: { peers: Array<{ id: string; name: string }>; level(): number; talk(on: boolean): void };
  }
}

interface SpecSocket {
  id: string;
  on(event: string, listener: (payload: any) => void): void;
  emit(event: string, payload: unknown): void;
}

/** The seed's client, as the spec describes it: one peer connection per peer of the room, mesh events only. */
async function startSpecClient(page: Page, token: string, room: string, name: string): Promise<void> {
  await page.addScriptTag({ path: SOCKET_IO });
  await page.evaluate(
    async ([token, room, name]) => {
      const audio = new AudioContext();
      await audio.resume();
      const microphone = await navigator.mediaDevices.getUserMedia({
        audio: { echoCancellation: false, noiseSuppression: false, autoGainControl: false },
      });
      const track = microphone.getAudioTracks()[0];
      // The spec: the microphone starts muted (its track disabled).
      track.enabled = false;
      const analyser = audio.createAnalyser();
      analyser.fftSize = 2048;
      const socket = window.io?.(location.origin, { query: { token }, transports: ['websocket'] }) as SpecSocket;
      const connections = new Map<string, RTCPeerConnection>();
      const peers: Array<{ id: string; name: string }> = [];
      const connectionTo = (id: string) => {
        let pc = connections.get(id);
        if (pc) return pc;
        pc = new RTCPeerConnection();
        pc.addTrack(track, microphone);
        pc.onicecandidate = (event) => {
          if (event.candidate)
            socket.emit('candidate', {
              candidate: event.candidate.toJSON(),
              candidateSendID: socket.id,
              candidateReceiveID: id,
              room,
            });
        };
        pc.ontrack = (event) => {
          const stream = event.streams[0] ?? new MediaStream([event.track]);
          const element = new Audio();
          element.muted = true;
          element.srcObject = stream;
          void element.play().catch(() => {});
          audio.createMediaStreamSource(stream).connect(analyser);
        };
        connections.set(id, pc);
        return pc;
      };
      socket.on('all_users', async (list: Array<{ id: string; name: string }>) => {
        for (const peer of list) {
          peers.push(peer);
          const pc = connectionTo(peer.id);
          await pc.setLocalDescription(await pc.createOffer());
          socket.emit('offer', {
            sdp: pc.localDescription?.toJSON(),
            offerSendID: socket.id,
            offerSendName: name,
            offerReceiveID: peer.id,
            room,
          });
        }
      });
      socket.on('getAnswer', async (payload: { sdp: RTCSessionDescriptionInit; answerSendID: string }) => {
        await connections.get(payload.answerSendID)?.setRemoteDescription(payload.sdp);
      });
      socket.on('getCandidate', async (payload: { candidate: RTCIceCandidateInit; candidateSendID: string }) => {
        await connections.get(payload.candidateSendID)?.addIceCandidate(payload.candidate);
      });
      socket.on('getOffer', async (payload: { sdp: RTCSessionDescriptionInit; offerSendID: string }) => {
        const pc = connectionTo(payload.offerSendID);
        await pc.setRemoteDescription(payload.sdp);
        await pc.setLocalDescription(await pc.createAnswer());
        socket.emit('answer', {
          sdp: pc.localDescription?.toJSON(),
          answerSendID: socket.id,
          answerReceiveID: payload.offerSendID,
          room,
        });
      });
      socket.on('connect', () => socket.emit('join_room', { room, name }));
      const samples = new Float32Array(analyser.fftSize);
      window.__spec = {
        peers,
        level() {
          analyser.getFloatTimeDomainData(samples);
          return samples.reduce((peak, sample) => Math.max(peak, Math.abs(sample)), 0);
        },
        talk(on: boolean) {
          // The spec: each change of the microphone is reported (micStateChange); the server decides the floor.
          track.enabled = on;
          socket.emit('micStateChange', { micState: on, room });
        },
      };
    },
    [token, room, name] as const,
  );
}

test('a spec client in a channel through the media server hears a member on /talk and is heard there', async ({
  browser,
}) => {
  const deployment = await janusDeployment();
  const { server, seed } = deployment;
  const pages: RoomPage[] = [];
  try {
    const channel = await seed.channel();
    const mia = await seed.member({ firstName: 'Mia', lastName: 'Talker' });
    const seedUser = await seed.member({ firstName: 'Old', lastName: 'Client' });
    await seed.addToChannel(channel.id, [mia.id, seedUser.id]);

    const m = await openAs(browser, server.baseURL, mia, { viewport: { width: 390, height: 844 } });
    pages.push(m);
    await m.page.goto(`/talk/${channel.id}`);
    await expect(transportOf(m.page)).toHaveText('Voice through the server');

    const context = await browser.newContext({ baseURL: server.baseURL, bypassCSP: true });
    pages.push({ page: await context.newPage(), close: () => context.close() });
    const spec = pages[1].page;
    await spec.goto('/healthz');
    await startSpecClient(spec, seedUser.token, channel.rtcSession, 'Old Client');
    // One peer: the media server, named as the channel.
    await expect.poll(() => spec.evaluate(() => window.__spec?.peers.map((peer) => peer.name))).toEqual([channel.name]);

    // Mia holds the button: the spec client hears her.
    const quietAtSpec = await spec.evaluate(() => window.__spec?.level() ?? 0);
    const button = m.page.getByRole('button', { name: 'Push to talk' }).first();
    await button.hover();
    await m.page.mouse.down();
    await expect(button).toHaveAttribute('aria-pressed', 'true');
    await expect
      .poll(() => spec.evaluate(() => window.__spec?.level() ?? 0))
      .toBeGreaterThan(Math.max(0.05, quietAtSpec * 20));
    await m.page.mouse.up();
    await expect.poll(() => spec.evaluate(() => window.__spec?.level() ?? 1)).toBeLessThan(0.02);

    // The spec client's mic event takes the floor: Mia's page hears it, and it goes quiet at its release.
    const specAtMia = await connectedPeer(m.page, seedUser.id);
    const quietAtMia = await measureSilence(m.page, specAtMia);
    await spec.evaluate(() => window.__spec?.talk(true));
    await expectToHear(m.page, specAtMia, quietAtMia);
    await spec.evaluate(() => window.__spec?.talk(false));
    await expectSilence(m.page, specAtMia, quietAtMia);
  } finally {
    for (const { close } of pages) await close();
    await deployment.stop();
  }
});
