/**
 * A lossy leg for bench:media's listeners (issue 37, mobile networks): this machine's kernel has no `netem`
 * (tc answers "Specified qdisc kind is unknown") and Janus has no drop setting of its own, so a listener's
 * connection goes through a UDP relay in this process that drops a share of the media server's RTP on its way
 * to the browser, at random. STUN and DTLS pass untouched (the connection is made as usual), and so does
 * everything the browser sends.
 *
 * The media server's offer names the relay instead of its own candidates (`relayOffer`), and the browser's
 * answer goes to the media server without its candidates (`withoutCandidates`): the media server learns the
 * browser's address from the relay's packets (a peer-reflexive candidate), so no direct path goes around it.
 */
import { createSocket, type RemoteInfo, type Socket } from 'node:dgram';

export interface LossyRelay {
  /** The offer with each of the media server's candidates replaced by one of the relay's. */
  offer: string;
  /** Media packets dropped so far, of those relayed to the browser. */
  dropped(): { dropped: number; of: number };
  close(): void;
}

/** RTP (not RTCP, not STUN, not DTLS): version 2, and a payload type outside RTCP's 192-223. */
function isRtp(packet: Buffer): boolean {
  return packet.length >= 12 && packet[0] >> 6 === 2 && (packet[1] < 192 || packet[1] > 223);
}

/** Relays the media server's candidates of `offer` through lossy sockets on the same addresses. */
export async function relayOffer(offer: string, lossPercent: number): Promise<LossyRelay> {
  const sockets: Socket[] = [];
  const counts = { dropped: 0, of: 0 };
  const lines: string[] = [];
  for (const line of offer.split('\r\n')) {
    const candidate = /^a=candidate:(\S+) (\d) (udp) (\d+) (\S+) (\d+) typ host(.*)$/i.exec(line);
    if (!candidate) {
      if (!/^a=candidate:/.test(line)) lines.push(line);
      continue;
    }
    const [, foundation, component, , priority, ip, port] = candidate;
    if (ip.includes(':')) continue;
    const socket = createSocket('udp4');
    sockets.push(socket);
    let browser: RemoteInfo | undefined;
    socket.on('message', (packet, from) => {
      if (from.address === ip && from.port === Number(port)) {
        if (!browser) return;
        if (isRtp(packet)) {
          counts.of += 1;
          if (Math.random() * 100 < lossPercent) {
            counts.dropped += 1;
            return;
          }
        }
        socket.send(packet, browser.port, browser.address);
      } else {
        browser = from;
        socket.send(packet, Number(port), ip);
      }
    });
    // On the media server's own address: from there it reaches it (a socket on 127.0.0.1 could not).
    await new Promise<void>((resolve) => socket.bind(0, ip, resolve));
    lines.push(
      `a=candidate:${foundation} ${component} udp ${priority} ${ip} ${socket.address().port} typ host generation 0`,
    );
  }
  return {
    offer: lines.join('\r\n'),
    dropped: () => ({ ...counts }),
    close() {
      for (const socket of sockets) socket.close();
    },
  };
}

/** A description without its candidates (the browser's answer, so that the media server learns it through the relay). */
export function withoutCandidates(sdp: string): string {
  return sdp
    .split('\r\n')
    .filter((line) => !/^a=candidate:/.test(line) && line !== 'a=end-of-candidates')
    .join('\r\n');
}
