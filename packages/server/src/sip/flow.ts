/** Where a SIP message came from: its transport, address and port (signalling.ts, tcp-framing.ts). */
export type SipTransport = 'udp' | 'tcp';

export interface Flow {
  transport: SipTransport;
  ip: string;
  port: number;
}
