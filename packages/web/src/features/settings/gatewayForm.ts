/**
 * The gateway dialog's form (issue 51) and what it sends: the fields as typed (the allowed addresses one per
 * line, the times as text), checked with protocol's own rules (gateways.ts), turned into createGateway's body or
 * into updateGateway's changed fields only (so that the audit entry names what changed), and the SIP address a
 * technician programs into the gateway for a channel.
 */
import {
  GATEWAY_ADDRESSES_MAX,
  GATEWAY_ATTACK_MS_DEFAULT,
  GATEWAY_FLOOR_MODES,
  GATEWAY_HANG_MS_DEFAULT,
  GATEWAY_LOGIN_PATTERN,
  GATEWAY_NAME_MAX,
  GATEWAY_PRIORITIES,
  type Gateway,
  GatewayAddress,
  GatewayAttackMs,
  GatewayHangMs,
  GatewaySimultaneousCalls,
} from '@talkgroup/protocol';
import { z } from 'zod';

/** The addresses typed one per line: blank lines and spaces around are left out. */
export function addressLines(text: string): string[] {
  return text
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line !== '');
}

/** The first line that is not an IP address or a CIDR block (1-based), or undefined when all are. */
export function wrongAddressLine(text: string): { line: number; address: string } | undefined {
  const lines = text.split(/\r?\n/);
  for (const [index, raw] of lines.entries()) {
    const address = raw.trim();
    if (address !== '' && !GatewayAddress.safeParse(address).success) return { line: index + 1, address };
  }
  return undefined;
}

/** The simultaneous calls as typed: empty (one per channel it may enter) or a whole number protocol accepts. */
export function simultaneousCallsOfText(text: string): number | null {
  return text.trim() === '' ? null : Number(text.trim());
}

const milliseconds = (rule: z.ZodNumber, code: string) =>
  z.string().refine((text) => /^\d+$/.test(text.trim()) && rule.safeParse(Number(text)).success, code);

/** Each message is a key of settings:gateways.errors. */
export const GatewayFormSchema = z.object({
  name: z.string().trim().min(1, 'nameRequired').max(GATEWAY_NAME_MAX, 'nameTooLong'),
  login: z.string().trim().regex(GATEWAY_LOGIN_PATTERN, 'login'),
  channelIds: z.array(z.number()),
  addresses: z
    .string()
    .refine((text) => wrongAddressLine(text) === undefined, 'address')
    .refine((text) => addressLines(text).length <= GATEWAY_ADDRESSES_MAX, 'tooManyAddresses'),
  floorMode: z.enum(GATEWAY_FLOOR_MODES),
  attackMs: milliseconds(GatewayAttackMs, 'attack'),
  hangMs: milliseconds(GatewayHangMs, 'hang'),
  priority: z.enum(GATEWAY_PRIORITIES),
  quietBetween: z.boolean(),
  simultaneousCalls: z
    .string()
    .refine(
      (text) =>
        text.trim() === '' ||
        (/^\d+$/.test(text.trim()) && GatewaySimultaneousCalls.safeParse(simultaneousCallsOfText(text)).success),
      'simultaneousCalls',
    ),
});
export type GatewayForm = z.input<typeof GatewayFormSchema>;

/** A new gateway: a member's priority, voice activity at its defaults, and no RTP between transmissions (a radio). */
export const NEW_GATEWAY: GatewayForm = {
  name: '',
  login: '',
  channelIds: [],
  addresses: '',
  floorMode: 'voice',
  attackMs: String(GATEWAY_ATTACK_MS_DEFAULT),
  hangMs: String(GATEWAY_HANG_MS_DEFAULT),
  priority: 'member',
  quietBetween: true,
  simultaneousCalls: '',
};

export function formOfGateway(gateway: Gateway): GatewayForm {
  return {
    name: gateway.name,
    login: gateway.login,
    channelIds: gateway.channelIds,
    addresses: gateway.allowedAddresses.join('\n'),
    floorMode: gateway.floorMode,
    attackMs: String(gateway.attackMs),
    hangMs: String(gateway.hangMs),
    priority: gateway.priority,
    quietBetween: gateway.quietBetween,
    simultaneousCalls: gateway.simultaneousCalls === null ? '' : String(gateway.simultaneousCalls),
  };
}

/** What createGateway receives for the form (checked by GatewayFormSchema first). */
export function gatewayOfForm(form: GatewayForm) {
  return {
    name: form.name.trim(),
    login: form.login.trim(),
    channelIds: [...form.channelIds].sort((a, b) => a - b),
    allowedAddresses: addressLines(form.addresses),
    floorMode: form.floorMode,
    attackMs: Number(form.attackMs),
    hangMs: Number(form.hangMs),
    priority: form.priority,
    quietBetween: form.quietBetween,
    simultaneousCalls: simultaneousCallsOfText(form.simultaneousCalls),
  };
}
export type GatewayFields = ReturnType<typeof gatewayOfForm>;

const sameList = <T>(a: readonly T[], b: readonly T[]) => a.length === b.length && a.every((item, i) => item === b[i]);

/** updateGateway's fields that differ from the gateway as it is (the channels compared whatever their order). */
export function changedFields(gateway: Gateway, form: GatewayForm): Partial<GatewayFields> {
  const next = gatewayOfForm(form);
  const changes: Partial<GatewayFields> = {};
  if (next.name !== gateway.name) changes.name = next.name;
  if (next.login !== gateway.login) changes.login = next.login;
  const channelIds = [...gateway.channelIds].sort((a, b) => a - b);
  if (!sameList(next.channelIds, channelIds)) changes.channelIds = next.channelIds;
  if (!sameList(next.allowedAddresses, gateway.allowedAddresses)) changes.allowedAddresses = next.allowedAddresses;
  if (next.floorMode !== gateway.floorMode) changes.floorMode = next.floorMode;
  if (next.attackMs !== gateway.attackMs) changes.attackMs = next.attackMs;
  if (next.hangMs !== gateway.hangMs) changes.hangMs = next.hangMs;
  if (next.priority !== gateway.priority) changes.priority = next.priority;
  if (next.quietBetween !== gateway.quietBetween) changes.quietBetween = next.quietBetween;
  if (next.simultaneousCalls !== gateway.simultaneousCalls) changes.simultaneousCalls = next.simultaneousCalls;
  return changes;
}

/**
 * The SIP address a gateway dials to enter a channel: `sip:{number}@{host}`, an IPv6 host in brackets as RFC 3261
 * writes it.
 */
export function sipAddress(number: string, host: string, port?: number): string {
  const bare = host.replace(/^\[|\]$/g, '');
  // 5060 is SIP's own port: a gateway adds it by itself.
  return `sip:${number}@${bare.includes(':') ? `[${bare}]` : bare}${port && port !== 5060 ? `:${port}` : ''}`;
}
