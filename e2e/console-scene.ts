/**
 * The dispatch console's busy scene (issue 58), for its layout test and its screenshots: a dispatcher, Dana
 * Morel, monitors three channels; Quai has five members connected in it (sockets, as their phones would be),
 * each with a status, and one of them, Alex, has sent an SOS. The caller disconnects the sockets.
 */
import { io } from 'socket.io-client';
import type { Account, Seed, TalkgroupServer } from './fixtures.ts';

export type Phone = ReturnType<typeof io>;

export interface ConsoleScene {
  dana: Account;
  /** Inès, Léa, Alex (the SOS), Noah and Yanis. */
  people: Account[];
  channels: Array<{ id: number; name: string; rtcSession: string }>;
  quai: { id: number; name: string; rtcSession: string };
  phones: Phone[];
  /** Closes Alex's SOS: the worker's server is shared, and an SOS left open alerts every later test's pages. */
  closeSos: () => Promise<void>;
}

const PEOPLE = [
  ['Inès', 'Roux-Delacroix'],
  ['Léa', 'Petit'],
  ['Alex', 'Martin'],
  ['Noah', 'Bernard'],
  ['Yanis', 'Faure'],
] as const;

function connected(phone: Phone): Promise<void> {
  return new Promise((resolve, reject) => {
    if (phone.connected) return resolve();
    phone.once('connect', () => resolve());
    phone.once('connect_error', reject);
  });
}

/** `suffix` tells the channels from those of other tests on the same server (the screenshots want none). */
export async function consoleScene(
  server: TalkgroupServer,
  admin: Account,
  seed: Seed,
  suffix = ` ${Math.random().toString(36).slice(2, 6)}`,
): Promise<ConsoleScene> {
  const quai = await seed.channel(`Quai${suffix}`);
  const atelier = await seed.channel(`Atelier${suffix}`);
  const portail = await seed.channel(`Portail nord${suffix}`);
  const dana = await seed.member({ firstName: 'Dana', lastName: 'Morel', role: 'dispatcher' });
  const people: Account[] = [];
  for (const [firstName, lastName] of PEOPLE) people.push(await seed.member({ firstName, lastName }));
  await seed.addToChannel(
    quai.id,
    [dana, ...people].map((account) => account.id),
  );
  await seed.addToChannel(atelier.id, [dana.id, people[3]?.id ?? 0]);
  await seed.addToChannel(portail.id, [dana.id, people[4]?.id ?? 0]);
  const channels = [quai, atelier, portail];
  await server.call(
    '/user/api/setMonitorList',
    { channels: channels.map((channel) => ({ channelId: channel.id })), unselectedVolume: 40 },
    dana.token,
  );
  const statuses = (await server.call('/user/api/listStatuses', {}, admin.token)).body.res as Array<{ id: number }>;
  const phones: Phone[] = [];
  for (const [index, member] of people.entries()) {
    const status = statuses[index % statuses.length];
    if (status) await server.call('/user/api/setMyStatus', { statusId: status.id }, member.token);
    const phone = io(server.baseURL, { query: { token: member.token }, transports: ['websocket'], forceNew: true });
    phones.push(phone);
    await connected(phone);
    phone.emit('join_room', { room: quai.rtcSession, name: `${member.firstName} ${member.lastName}` });
  }
  const alex = people[2];
  let closeSos = async () => {};
  if (alex) {
    const sos = await server.call('/user/api/sendEmergencyAlert', { channelId: quai.id }, alex.token);
    if (sos.status !== 200) throw new Error(`sendEmergencyAlert: ${sos.status} ${JSON.stringify(sos.body)}`);
    const alertId = sos.body.res.id;
    closeSos = async () => {
      const closed = await server.call('/user/api/closeEmergencyAlert', { alertId, outcome: 'false' }, admin.token);
      if (closed.status !== 200)
        throw new Error(`closeEmergencyAlert: ${closed.status} ${JSON.stringify(closed.body)}`);
    };
  }
  return { dana, people, channels, quai, phones, closeSos };
}

/**
 * The phones hang up and the SOS is closed: the worker's server is shared, and an SOS left open put its alert
 * over the pages of a later test of the same worker (users-bulk waited behind it until its time ran out).
 */
export async function hangUp(scene: ConsoleScene | undefined): Promise<void> {
  for (const phone of scene?.phones ?? []) phone.disconnect();
  await scene?.closeSos();
}
