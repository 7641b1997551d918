/**
 * SIP gateways' calls where a channel's participants are listed (issue 51): a radio or a desk phone in a channel is
 * marked as a gateway (GatewayMark), and who holds channel.gateways there (an administrator, a dispatcher of the
 * channel: issue 58) hangs it up (HangUpGatewayButton), on the room's participants and on the dispatch console's
 * tiles. The gateways themselves are managed on /settings.
 */
export { GatewayMark } from './GatewayMark.tsx';
export { HangUpGatewayButton } from './HangUpGatewayButton.tsx';
