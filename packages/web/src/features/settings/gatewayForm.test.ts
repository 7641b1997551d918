/** The gateway dialog's form: what it accepts, what it sends on creation and on a change, the SIP address shown. */
import type { Gateway } from '@talkgroup/protocol';
import { describe, expect, it } from 'vitest';
import {
  addressLines,
  changedFields,
  formOfGateway,
  GatewayFormSchema,
  gatewayOfForm,
  NEW_GATEWAY,
  sipAddress,
  wrongAddressLine,
} from './gatewayForm.ts';

const gateway: Gateway = {
  id: 7,
  name: 'Radio Quai',
  login: 'radio-quai',
  channelIds: [3, 1],
  allowedAddresses: ['192.0.2.10', '198.51.100.0/24'],
  floorMode: 'voice',
  attackMs: 400,
  hangMs: 1500,
  priority: 'member',
  quietBetween: true,
  simultaneousCalls: null,
  createdAt: '2026-11-27T06:00:00.000Z',
  calls: 0,
};

const issues = (form: typeof NEW_GATEWAY) => {
  const result = GatewayFormSchema.safeParse(form);
  return result.success ? [] : result.error.issues.map((issue) => `${issue.path.join('.')}:${issue.message}`);
};

describe('gateway form', () => {
  it('accepts a new radio with its name and login, at the voice activity defaults', () => {
    const form = { ...NEW_GATEWAY, name: ' Radio Quai ', login: 'radio-quai', channelIds: [4, 2] };
    expect(issues(form)).toEqual([]);
    expect(gatewayOfForm(form)).toEqual({
      name: 'Radio Quai',
      login: 'radio-quai',
      channelIds: [2, 4],
      allowedAddresses: [],
      floorMode: 'voice',
      attackMs: 400,
      hangMs: 1500,
      priority: 'member',
      quietBetween: true,
      simultaneousCalls: null,
    });
  });

  it('refuses an empty name, a login with a space, times out of range and a line that is no address', () => {
    const form = {
      ...NEW_GATEWAY,
      name: '  ',
      login: 'radio quai',
      attackMs: '10',
      hangMs: '1,5',
      addresses: '192.0.2.1\n\nradio.example.org',
      simultaneousCalls: '0',
    };
    expect(issues(form).sort()).toEqual(
      [
        'addresses:address',
        'attackMs:attack',
        'hangMs:hang',
        'login:login',
        'name:nameRequired',
        'simultaneousCalls:simultaneousCalls',
      ].sort(),
    );
    for (const wrong of ['1001', '2.5', 'deux', '-1'])
      expect(issues({ ...NEW_GATEWAY, name: 'Radio', login: 'radio', simultaneousCalls: wrong })).toEqual([
        'simultaneousCalls:simultaneousCalls',
      ]);
    expect(wrongAddressLine(form.addresses)).toEqual({ line: 3, address: 'radio.example.org' });
  });

  it('reads the allowed addresses one per line, IPv6 and CIDR blocks too, blank lines left out', () => {
    const text = ' 192.0.2.10 \n\n2001:db8::/32\r\n198.51.100.0/24\n';
    expect(wrongAddressLine(text)).toBeUndefined();
    expect(addressLines(text)).toEqual(['192.0.2.10', '2001:db8::/32', '198.51.100.0/24']);
  });

  it('sends only what changed, the channels whatever their order', () => {
    const form = formOfGateway(gateway);
    expect(changedFields(gateway, { ...form, channelIds: [1, 3] })).toEqual({});
    expect(
      changedFields(gateway, {
        ...form,
        name: 'Radio Port',
        floorMode: 'dtmf',
        addresses: '192.0.2.10',
        hangMs: '2000',
      }),
    ).toEqual({ name: 'Radio Port', floorMode: 'dtmf', allowedAddresses: ['192.0.2.10'], hangMs: 2000 });
    // The simultaneous calls: a number typed, and back to empty (the default, one per channel).
    expect(changedFields(gateway, { ...form, simultaneousCalls: ' 12 ' })).toEqual({ simultaneousCalls: 12 });
    const raised = { ...gateway, simultaneousCalls: 12 };
    expect(formOfGateway(raised).simultaneousCalls).toBe('12');
    expect(changedFields(raised, { ...formOfGateway(raised), simultaneousCalls: '' })).toEqual({
      simultaneousCalls: null,
    });
  });

  it('writes the SIP address of a channel number, an IPv6 host in brackets', () => {
    expect(sipAddress('1003', 'talk.example.org')).toBe('sip:1003@talk.example.org');
    expect(sipAddress('1003', '[2001:db8::1]')).toBe('sip:1003@[2001:db8::1]');
    expect(sipAddress('1003', '2001:db8::1')).toBe('sip:1003@[2001:db8::1]');
  });
});
