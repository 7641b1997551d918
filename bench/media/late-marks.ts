/**
 * A late entry's marks (run.ts, lateEntry): set in the page by an init script, read back by polling.
 */
import type { Page } from '@playwright/test';
import { pause, SOUND_THRESHOLD } from '../ptt-latency/room-pair.ts';
import type { LateMarks } from './report.ts';

/**
 * Marks, in every page of the context from now on, when it sends `join_room` and when it first plays a sound
 * above the threshold from anyone of its room; and on the way (LATE_STEPS): when it asks for the voice
 * (`media_watch` through the media server, its first `offer` on the mesh), when it gets the other side's
 * description (the media server's offer, a talker's answer), when a connection of the page is up, when its
 * first audio packet arrived.
 */
export async function markJoinAndSound(page: Page): Promise<void> {
  await page.context().addInitScript((threshold) => {
    const now = () => performance.timeOrigin + performance.now();
    const marks: {
      joinAt: number;
      soundAt: number;
      asked?: number;
      described?: number;
      connected?: number;
      packet?: number;
    } = { joinAt: 0, soundAt: 0 };
    (window as unknown as { __late: typeof marks }).__late = marks;
    const send = WebSocket.prototype.send;
    WebSocket.prototype.send = function (this: WebSocket, data) {
      if (typeof data === 'string') {
        if (!marks.joinAt && data.includes('"join_room"')) marks.joinAt = now();
        if (marks.joinAt && !marks.asked && /"(media_watch|offer)"/.test(data)) marks.asked = now();
      }
      return send.call(this, data);
    };
    const setRemote = RTCPeerConnection.prototype.setRemoteDescription;
    RTCPeerConnection.prototype.setRemoteDescription = function (
      this: RTCPeerConnection,
      description: RTCSessionDescriptionInit,
    ) {
      if (marks.joinAt && !marks.described) marks.described = now();
      return (setRemote as (this: RTCPeerConnection, description: RTCSessionDescriptionInit) => Promise<void>).call(
        this,
        description,
      );
    } as typeof setRemote;
    const Native = window.RTCPeerConnection;
    window.RTCPeerConnection = class extends Native {
      constructor(configuration?: RTCConfiguration) {
        super(configuration);
        this.addEventListener('connectionstatechange', () => {
          if (this.connectionState !== 'connected' || !marks.joinAt) return;
          const connectedAt = now();
          // The first packet's own arrival time, polled until one came; "connected" is then the connection
          // that brought it (the media server's send leg receives nothing).
          const poll = async () => {
            if (marks.packet) return;
            for (const report of (await this.getStats()).values())
              if (report.type === 'inbound-rtp' && report.kind === 'audio' && report.packetsReceived > 0) {
                marks.packet = report.lastPacketReceivedTimestamp;
                marks.connected = connectedAt;
                return;
              }
            if (this.connectionState === 'connected') setTimeout(() => void poll(), 2);
          };
          void poll();
        });
      }
    };
    const timer = setInterval(() => {
      const room = window.__talkgroupRoom;
      if (!marks.joinAt || !room) return;
      if (Object.values(room.levels()).some((level) => level > threshold)) {
        marks.soundAt = performance.timeOrigin + performance.now();
        clearInterval(timer);
      }
    }, 2);
  }, SOUND_THRESHOLD);
}

export async function waitForMarks(page: Page): Promise<LateMarks | null> {
  const deadline = Date.now() + 10_000;
  while (Date.now() < deadline) {
    const marks = await page
      .evaluate(() => (window as unknown as { __late?: LateMarks }).__late)
      .catch(() => undefined);
    if (marks?.joinAt && marks.soundAt) return marks;
    await pause(50);
  }
  return null;
}
