/**
 * A participant's links with Janus: each is a handle on the channel's Janus, attached for one use (publishing,
 * watching, the mixer) and watched for Janus hanging it up; dropped when the participant leaves, renegotiates or
 * loses its Janus, ending first what it had on the air.
 */
import { AUDIOBRIDGE, type JanusBackend, STREAMING, VIDEOROOM } from '../../../janus/backends.ts';
import { air } from './on-air.ts';
import { type Link, type LinkKind, linksOf, type Participant, uplinkOf } from './participants.ts';
import type { JanusPlaneState } from './plane-state.ts';

/**
 * Ends what the participant has on the air (its forwards, its take) and forgets one link, or all of them;
 * `leave`: tells Janus too (it is still there). Resolves once Janus has let the handles go (a take is
 * finished after that, unawaited), so that whoever counts the rooms' participants next does not count it.
 */
export function dropLinks(
  state: JanusPlaneState,
  participant: Participant,
  leave: boolean,
  only?: LinkKind,
): Promise<void> {
  const links = linksOf(participant).filter((link) => !only || link.kind === only);
  if (links.length === 0) return Promise.resolve();
  const uplink = uplinkOf(participant);
  const endsAir = participant.onAir && uplink !== undefined && links.includes(uplink);
  const take = endsAir ? participant.take : undefined;
  if (endsAir) {
    participant.onAir = false;
    participant.take = undefined;
  }
  for (const link of links) {
    participant[link.kind] = undefined;
    link.off();
  }
  const left = (async () => {
    // On the air when its page closed (or its link failed): its forwards stop and Janus closes its take first.
    if (endsAir && uplink && leave && uplink.backend.up) await air(state, participant, uplink, false).catch(() => {});
    for (const link of links) {
      if (!leave || !link.backend.up) continue;
      if (link.kind !== 'watch') await link.handle.message({ request: 'leave' }).catch(() => {});
      await link.handle.detach().catch(() => {});
    }
    // Gone without a word (Janus down): what else was on the air is forwarded the right way again.
    if (endsAir && uplink && !leave && uplink.backend.up)
      await state.feed.apply(uplink.backend, participant.channelId).catch(() => {});
  })();
  void left.then(async () => {
    if (take) await state.takes.finish(take);
  });
  return left;
}

/** A new handle for one of the participant's links on the channel's Janus, watched for Janus hanging it up. */
export async function attach(
  state: JanusPlaneState,
  participant: Participant,
  backend: JanusBackend,
  kind: LinkKind,
): Promise<Link> {
  await dropLinks(state, participant, true, kind);
  // A page moving from the mixer to the VideoRoom (or back) keeps one uplink.
  if (kind === 'send') await dropLinks(state, participant, true, 'bridge');
  if (kind === 'bridge') await dropLinks(state, participant, true, 'send');
  const { session } = await backend.control();
  const plugin = kind === 'send' ? VIDEOROOM : kind === 'watch' ? STREAMING : AUDIOBRIDGE;
  const handle = await session.attach(plugin);
  const link: Link = { backend, handle, kind, off: () => {} };
  link.off = handle.onEvent((message) => {
    const data = message.plugindata?.data;
    const gone =
      message.janus === 'hangup' ||
      message.janus === 'detached' ||
      data?.audiobridge === 'destroyed' ||
      data?.videoroom === 'destroyed';
    if (!gone || participant[kind] !== link) return;
    state.startOver(participant, 'The voice link with the media server was lost.');
  });
  participant[kind] = link;
  return link;
}
