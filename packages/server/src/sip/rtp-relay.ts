/**
 * A gateway call's media relay as the main thread sees it (issue 51). Its packets are all handled on one of the
 * relay's threads (relay-threads.ts; what is done to them: relay-media.ts), never here: the main thread asks it to
 * open its ports, to connect to Janus, to play the busy tone and to close, and hears back only what the floor needs
 * (a voice press or release, a DTMF key), a few times a transmission.
 *
 * `counts` and `soundBeganAt` (tests, bench:gateway) are the thread's, told every 100 ms while they change and at
 * once for the sound's beginning.
 */
import { OPUS_PT, type RtpAddress } from '../janus/room-requests.ts';
import { type Counts, type MediaOptions, PortsExhausted } from './relay-media.ts';
import type { RelayEvent, RelayRequest } from './relay-thread.ts';
import type { RelayLink, RelayThreads } from './relay-threads.ts';

export { type GatewayCodec, MAX_PACKETS_PER_SECOND, MAX_PAYLOAD, PortsExhausted } from './relay-media.ts';

export interface RelayOptions extends Omit<MediaOptions, 'opusPt'> {
  /** The threads the call's media runs on. */
  threads: RelayThreads;
  /** What the SDP answer names (the gateway side's address as the gateway reaches it). */
  publicAddress: string;
  /** Floor by voice: its press (voice for the attack time) or release (quiet for the hang time). */
  onVoice: (change: 'press' | 'release') => void;
  onKey: (key: string) => void;
  /** An error in the handling of one packet or timer tick: that packet is lost, and it is said here. */
  fault?: (error: unknown) => void;
  /** The relay's thread died: the call has no media left and must end. */
  lost: (why: string) => void;
}

type Answer = { port?: number; address?: RtpAddress };
/** A request as a relay writes it: its call and request numbers are added on the way. */
type Unnumbered<T> = T extends unknown ? Omit<T, 'call' | 'request'> : never;
type Ask = Extract<RelayRequest, { request: number }>;

export class RtpRelay {
  readonly #options: RelayOptions;
  readonly #link: RelayLink;
  readonly #asked = new Map<number, { resolve: (answer: Answer) => void; reject: (error: Error) => void }>();
  #nextRequest = 0;
  #closed = false;
  /** Why its media is gone, when its thread died. */
  #lost: Error | undefined;
  /** Packets from the gateway, to Janus, from Janus, to the gateway; refused and dropped (bench and tests). */
  readonly counts: Counts = { fromGateway: 0, toJanus: 0, fromJanus: 0, toGateway: 0, refused: 0, dropped: 0 };
  /**
   * When the channel's sound last began going to the gateway (epoch ms, sub-millisecond): the first packet with
   * sound after a silent one or a gap. bench:gateway times a page's press to it; nothing in the server reads it.
   */
  soundBeganAt = 0;

  constructor(options: RelayOptions) {
    this.#options = options;
    // What the thread tells is handled as one piece of work each: an error in it is a fault, never thrown further.
    const safely =
      <A extends unknown[]>(work: (...args: A) => void) =>
      (...args: A) => {
        try {
          work(...args);
        } catch (error) {
          options.fault?.(error);
        }
      };
    this.#link = options.threads.attach({
      event: safely((event) => this.#heard(event)),
      tally: safely(({ counts, faults }) => {
        Object.assign(this.counts, counts);
        for (let i = 0; faults && i < faults.count; i++) options.fault?.(faults.error);
      }),
      ended: safely((error) => {
        this.#lost = error;
        this.#end(error);
        options.fault?.(error);
        options.lost('its media relay thread ended');
      }),
    });
  }

  /** The relay thread's id (tests: the packets are handled off the main thread). */
  get threadId(): number {
    return this.#link.threadId;
  }

  /** Binds the gateway's side in SIP_RTP_PORTS; the address and port the SDP answer names. */
  async open(): Promise<RtpAddress> {
    const { threads, publicAddress, onVoice, onKey, fault, lost, ...media } = this.#options;
    const { port } = await this.#ask({ type: 'open', options: { ...media, opusPt: OPUS_PT } });
    return { ip: publicAddress, port: port as number };
  }

  /** Binds Janus's side, on the address that reaches that Janus (RtpLeg.open). */
  async openTowards(janusHost: string): Promise<RtpAddress> {
    return (await this.#ask({ type: 'openTowards', host: janusHost })).address as RtpAddress;
  }

  /** How the leg with Janus is coded: always Opus (a G.711 gateway's is turned into Opus on the relay's thread). */
  get janusLeg(): { codec: 'opus'; payloadType: number } {
    return { codec: 'opus', payloadType: this.#options.codec === 'opus' ? this.#options.audioPt : OPUS_PT };
  }

  /** Where Janus listens for the gateway's voice; from now on its voice activity is read. Throws if its thread died. */
  connectJanus(address: RtpAddress): void {
    if (this.#lost) throw this.#lost;
    this.#post({ type: 'connectJanus', address });
  }

  /** Plays the busy tone to the gateway (G.711 only), instead of the mix. */
  busy(): void {
    this.#post({ type: 'busy' });
  }

  /** The floor was refused or taken back: its voice must pause for the hang time before it asks again. */
  resetVoice(): void {
    if (this.#options.voice) this.#post({ type: 'resetVoice' });
  }

  close(): void {
    if (this.#closed) return;
    this.#post({ type: 'close' });
    this.#end(new Error('the relay is closed'));
  }

  #end(error: Error): void {
    this.#closed = true;
    this.#link.detach();
    for (const { reject } of this.#asked.values()) reject(error);
    this.#asked.clear();
  }

  #post(request: Unnumbered<Exclude<RelayRequest, Ask>>): void {
    if (!this.#closed) this.#link.post({ ...request, call: this.#link.call } as RelayRequest);
  }

  #ask(request: Unnumbered<Ask>): Promise<Answer> {
    if (this.#closed) return Promise.reject(new Error('the relay is closed'));
    const id = this.#nextRequest++;
    return new Promise((resolve, reject) => {
      this.#asked.set(id, { resolve, reject });
      this.#link.post({ ...request, call: this.#link.call, request: id } as RelayRequest);
    });
  }

  #heard(event: Exclude<RelayEvent, { type: 'tally' }>): void {
    if (event.type === 'answer' || event.type === 'refused') {
      const asked = this.#asked.get(event.request);
      this.#asked.delete(event.request);
      if (event.type === 'answer') asked?.resolve(event);
      else asked?.reject(event.exhausted ? new PortsExhausted(event.error.message) : event.error);
    } else if (this.#closed) return;
    else if (event.type === 'voice') this.#options.onVoice(event.change);
    else if (event.type === 'key') this.#options.onKey(event.key);
    else if (event.type === 'sound') this.soundBeganAt = event.at;
  }
}
